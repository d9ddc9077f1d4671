"use strict";
// Steps through the positions by showing and hiding the board's marks, and follows a game in
// progress. The page works without this script: every step is a link the server draws.
(() => {
  const read = (id) => JSON.parse(document.getElementById(id).textContent);
  let frames = read("frames");
  const words = read("words");
  let main = document.getElementById("game");
  let ply = Number(main.dataset.ply);

  const show = (n) => {
    const last = frames.length - 1;
    ply = Math.max(0, Math.min(n, last));
    const on = new Set(frames[ply]);
    for (const g of main.querySelectorAll('svg g[id^="m"]')) {
      g.setAttribute("display", on.has(Number(g.id.slice(1))) ? "inline" : "none");
    }
    for (const a of main.querySelectorAll("#steps a")) {
      const current = Number(a.dataset.ply) === ply;
      a.classList.toggle("current", current);
      if (current) {
        a.setAttribute("aria-current", "step");
        // Scroll the list alone (never the page) to show the step.
        const list = a.closest("ol");
        const top = a.offsetTop - list.clientHeight / 2 + a.offsetHeight / 2;
        list.scrollTop = Math.max(0, top);
      } else {
        a.removeAttribute("aria-current");
      }
    }
    document.getElementById("where").textContent =
      ply === 0 ? words.where[0] : words.where[1].replace("{n}", ply).replace("{last}", last);
    const url = new URL(location.href);
    if (ply === last) url.searchParams.delete("ply"); else url.searchParams.set("ply", ply);
    history.replaceState(null, "", url);
    main.dataset.ply = ply;
  };

  const wire = () => {
    const go = { first: () => 0, back: () => ply - 1, forward: () => ply + 1, end: () => frames.length - 1 };
    for (const [id, to] of Object.entries(go)) {
      document.getElementById(id).addEventListener("click", (e) => { e.preventDefault(); show(to()); });
    }
    for (const a of main.querySelectorAll("#steps a")) {
      a.addEventListener("click", (e) => { e.preventDefault(); show(Number(a.dataset.ply)); });
    }
  };

  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: frames.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });

  // A game in progress: wait on the server for the next move, then take the new page's game
  // in place of this one (staying where the reader was, or going on with the game when they
  // were at its newest position).
  const follow = async () => {
    let failures = 0;
    while (main.dataset.live === "1") {
      try {
        const r = await fetch(`/g/${main.dataset.id}/wait?after=${main.dataset.version}`, { cache: "no-store" });
        if (r.status === 410 || r.status === 404) { location.reload(); return; }
        if (!r.ok) throw new Error(String(r.status));
        const { version } = await r.json();
        failures = 0;
        if (version <= Number(main.dataset.version)) continue;
        const atEnd = ply === frames.length - 1;
        const url = new URL(location.href);
        if (atEnd) url.searchParams.delete("ply");
        const page = await fetch(url, { cache: "no-store" });
        if (!page.ok) throw new Error(String(page.status));
        const next = new DOMParser().parseFromString(await page.text(), "text/html");
        document.getElementById("standing").replaceWith(next.getElementById("standing"));
        document.getElementById("frames").textContent = next.getElementById("frames").textContent;
        document.title = next.title;
        main.replaceWith(next.getElementById("game"));
        main = document.getElementById("game");
        frames = read("frames");
        wire();
        show(atEnd ? frames.length - 1 : ply);
      } catch (err) {
        failures += 1;
        await new Promise((done) => setTimeout(done, Math.min(30000, 1000 * 2 ** failures)));
      }
    }
  };

  wire();
  show(ply);
  follow();
})();
