//! The app's sounds: a move, a capture, check, a battle, the die, a win, a loss and a phrase
//! from the opponent.
//!
//! Each sound is synthesised here at the output device's own sample rate (short enveloped
//! tones and filtered noise), so the app ships no sound files and needs no decoder: the
//! sounds are this project's own work, under its licence (MIT OR Apache-2.0). They play
//! through cpal (ALSA on Linux, WASAPI on Windows, CoreAudio on macOS, AAudio on Android).
//! The device is opened on the first sound; with no device (a server, CI) the app is silent
//! and says so once on stderr. Sounds never wait for anything: a sound is queued to the
//! device's callback and the call returns.

use std::cell::RefCell;
use std::sync::{Arc, Mutex};

/// What happened, as the ear is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sound {
    /// A piece or plane moved.
    Move,
    /// A piece was taken (Xiangqi) or a plane sent home (Aeroplane chess).
    Capture,
    /// A general is in check.
    Check,
    /// Two pieces fought (Junqi, Sea-land-air).
    Battle,
    /// The die was rolled.
    Roll,
    /// The game ended and the player on this device won (or two people finished).
    Win,
    /// The game ended and the player on this device lost.
    Lose,
    /// The opponent sent a phrase (a correspondence game).
    Message,
}

impl Sound {
    /// Every sound.
    pub const ALL: [Sound; 8] = [
        Sound::Move,
        Sound::Capture,
        Sound::Check,
        Sound::Battle,
        Sound::Roll,
        Sound::Win,
        Sound::Lose,
        Sound::Message,
    ];
}

/// A tiny deterministic noise source (xorshift), for the clicks and the rattle.
struct Noise(u32);

impl Noise {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        (self.0 as f32 / u32::MAX as f32) * 2.0 - 1.0
    }
}

/// A tone of `freq` Hz from `start` s for `len` s, with a fast attack and an exponential decay.
fn tone(out: &mut [f32], rate: f32, start: f32, len: f32, freq: f32, gain: f32, decay: f32) {
    let first = (start * rate) as usize;
    let n = (len * rate) as usize;
    for i in 0..n {
        let Some(slot) = out.get_mut(first + i) else {
            break;
        };
        let t = i as f32 / rate;
        let attack = (t / 0.004).min(1.0);
        let env = attack * (-t * decay).exp();
        let s = (t * freq * std::f32::consts::TAU).sin()
            + 0.3 * (t * freq * 2.0 * std::f32::consts::TAU).sin();
        *slot += gain * env * s;
    }
}

/// A knock of wood: low-passed noise with a short body resonance, at `start` s.
fn knock(out: &mut [f32], rate: f32, start: f32, gain: f32, pitch: f32, noise: &mut Noise) {
    let first = (start * rate) as usize;
    let n = (0.09 * rate) as usize;
    let mut low = 0.0f32;
    for i in 0..n {
        let Some(slot) = out.get_mut(first + i) else {
            break;
        };
        let t = i as f32 / rate;
        low += 0.35 * (noise.next() - low);
        let body = (t * pitch * std::f32::consts::TAU).sin() * (-t * 60.0).exp();
        *slot += gain * ((-t * 90.0).exp() * low * 0.8 + body * 0.6);
    }
}

/// The samples of `sound` at `rate` Hz, mono, in -1..1.
pub fn synth(sound: Sound, rate: u32) -> Vec<f32> {
    let r = rate as f32;
    let seconds = match sound {
        Sound::Move | Sound::Capture => 0.16,
        Sound::Check => 0.45,
        Sound::Battle => 0.35,
        Sound::Roll => 0.5,
        Sound::Win => 0.9,
        Sound::Lose => 0.9,
        Sound::Message => 0.4,
    };
    let mut out = vec![0.0f32; (seconds * r) as usize];
    let mut noise = Noise(0x9E37_79B9);
    match sound {
        Sound::Move => knock(&mut out, r, 0.0, 0.9, 420.0, &mut noise),
        Sound::Capture => {
            knock(&mut out, r, 0.0, 0.9, 380.0, &mut noise);
            knock(&mut out, r, 0.055, 0.8, 300.0, &mut noise);
        }
        Sound::Check => {
            tone(&mut out, r, 0.0, 0.2, 880.0, 0.35, 14.0);
            tone(&mut out, r, 0.18, 0.27, 660.0, 0.35, 10.0);
        }
        Sound::Battle => {
            tone(&mut out, r, 0.0, 0.35, 110.0, 0.6, 9.0);
            knock(&mut out, r, 0.0, 0.7, 160.0, &mut noise);
            knock(&mut out, r, 0.03, 0.5, 220.0, &mut noise);
        }
        Sound::Roll => {
            for (i, at) in [0.0, 0.07, 0.13, 0.2, 0.26, 0.34].into_iter().enumerate() {
                knock(&mut out, r, at, 0.55, 700.0 + 90.0 * i as f32, &mut noise);
            }
        }
        Sound::Win => notes(&mut out, r, &[523.25, 659.25, 783.99, 1046.5], 0.13, 4.0),
        Sound::Message => {
            // Two soft high notes, a rising "ding-ding".
            tone(&mut out, r, 0.0, 0.2, 1318.5, 0.3, 16.0);
            tone(&mut out, r, 0.11, 0.29, 1760.0, 0.3, 12.0);
        }
        Sound::Lose => notes(&mut out, r, &[392.0, 349.23, 311.13, 261.63], 0.16, 5.0),
    }
    let peak = out.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    if peak > 0.0 {
        for s in &mut out {
            *s *= 0.5 / peak;
        }
    }
    out
}

/// Notes one after another, `step` seconds apart, each ringing to the end (a fanfare, or its
/// falling opposite).
fn notes(out: &mut [f32], rate: f32, pitches: &[f32], step: f32, decay: f32) {
    for (i, &f) in pitches.iter().enumerate() {
        let at = step * i as f32;
        tone(out, rate, at, 0.9 - at, f, 0.25, decay);
    }
}

/// The sounds playing, mixed by the device's callback.
type Voices = Arc<Mutex<Vec<(Arc<Vec<f32>>, usize)>>>;

/// An open output device.
struct Output {
    rate: u32,
    voices: Voices,
    cache: Vec<(Sound, Arc<Vec<f32>>)>,
    _stream: cpal::Stream,
}

/// What the device's callback runs: `frames` frames of the sounds playing mixed, each handed
/// to `put`; a sound that has ended is dropped.
fn mixer(voices: Voices) -> impl Fn(usize, &mut dyn FnMut(usize, f32)) + Send + 'static {
    move |frames: usize, put: &mut dyn FnMut(usize, f32)| {
        let Ok(mut playing) = voices.lock() else {
            return;
        };
        for f in 0..frames {
            let mut v = 0.0;
            for (samples, at) in playing.iter_mut() {
                if let Some(s) = samples.get(*at) {
                    v += s;
                    *at += 1;
                }
            }
            put(f, v.clamp(-1.0, 1.0));
        }
        playing.retain(|(samples, at)| *at < samples.len());
    }
}

impl Output {
    fn open() -> Result<Output, String> {
        use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
        let device = cpal::default_host()
            .default_output_device()
            .ok_or("no audio output device")?;
        let config = device.default_output_config().map_err(|e| e.to_string())?;
        let format = config.sample_format();
        let config: cpal::StreamConfig = config.into();
        let channels = usize::from(config.channels).max(1);
        let rate = config.sample_rate;
        let voices: Voices = Arc::new(Mutex::new(Vec::new()));
        let mix = mixer(voices.clone());
        let error = |e: cpal::Error| eprintln!("qiguan: sound: {e}");
        let stream = match format {
            cpal::SampleFormat::F32 => device.build_output_stream(
                config,
                move |data: &mut [f32], _: &cpal::OutputCallbackInfo| {
                    data.fill(0.0);
                    mix(data.len() / channels, &mut |f, v| {
                        data[f * channels..(f + 1) * channels].fill(v);
                    });
                },
                error,
                None,
            ),
            cpal::SampleFormat::I16 => device.build_output_stream(
                config,
                move |data: &mut [i16], _: &cpal::OutputCallbackInfo| {
                    data.fill(0);
                    mix(data.len() / channels, &mut |f, v| {
                        data[f * channels..(f + 1) * channels].fill((v * 32767.0) as i16);
                    });
                },
                error,
                None,
            ),
            other => return Err(format!("unsupported sample format {other}")),
        }
        .map_err(|e| e.to_string())?;
        stream.play().map_err(|e| e.to_string())?;
        Ok(Output {
            rate,
            voices,
            cache: Vec::new(),
            _stream: stream,
        })
    }

    fn play(&mut self, sound: Sound) {
        let samples = match self.cache.iter().find(|(s, _)| *s == sound) {
            Some((_, samples)) => samples.clone(),
            None => {
                let samples = Arc::new(synth(sound, self.rate));
                self.cache.push((sound, samples.clone()));
                samples
            }
        };
        if let Ok(mut playing) = self.voices.lock() {
            // A burst of sounds (a computer answering at once) never piles up.
            if playing.len() < 4 {
                playing.push((samples, 0));
            }
        }
    }
}

/// Where sounds go: the device (opened on the first sound), or, for tests, only a list of
/// what would have played.
pub struct Speaker {
    device: bool,
    output: RefCell<Option<Result<Output, ()>>>,
    played: RefCell<Vec<Sound>>,
}

impl std::fmt::Debug for Speaker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Speaker(device: {})", self.device)
    }
}

impl Speaker {
    /// A speaker that plays through the default output device when `device` is true (the
    /// app); otherwise it only keeps the list (tests, screenshots).
    pub fn new(device: bool) -> Speaker {
        Speaker {
            device,
            output: RefCell::new(None),
            played: RefCell::new(Vec::new()),
        }
    }

    /// Plays `sound` (the caller checks the setting).
    pub fn play(&self, sound: Sound) {
        self.played.borrow_mut().push(sound);
        if !self.device {
            return;
        }
        let mut output = self.output.borrow_mut();
        let output = output
            .get_or_insert_with(|| Output::open().map_err(|e| eprintln!("qiguan: no sound: {e}")));
        if let Ok(output) = output {
            output.play(sound);
        }
    }

    /// Every sound played so far, oldest first (for tests).
    pub fn played(&self) -> Vec<Sound> {
        self.played.borrow().clone()
    }
}

#[cfg(test)]
mod tests {
    use super::{Sound, synth};

    #[test]
    fn every_sound_is_short_audible_and_within_range() {
        for rate in [44_100, 48_000] {
            for sound in Sound::ALL {
                let s = synth(sound, rate);
                let seconds = s.len() as f32 / rate as f32;
                assert!((0.1..=1.0).contains(&seconds), "{sound:?}: {seconds} s");
                let peak = s.iter().fold(0.0f32, |m, x| m.max(x.abs()));
                assert!((0.45..=0.5001).contains(&peak), "{sound:?}: peak {peak}");
                // Not silence: a fair share of the samples carries sound.
                let loud = s.iter().filter(|x| x.abs() > 0.01).count();
                assert!(loud * 20 > s.len(), "{sound:?}: {loud} of {}", s.len());
            }
        }
        // Different events sound different.
        assert_ne!(synth(Sound::Win, 48_000), synth(Sound::Lose, 48_000));
        assert_ne!(synth(Sound::Move, 48_000), synth(Sound::Capture, 48_000));
    }
}
