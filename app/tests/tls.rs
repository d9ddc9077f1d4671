//! The sync client speaks HTTPS through rustls (ring), as it must on Android where there is no
//! OpenSSL: it reaches a server whose certificate it trusts, and refuses one it does not know.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use qiguan_app::sync::{Client, SyncError};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Serves HTTPS on 127.0.0.1 with a fresh self-signed certificate for `localhost`; every
/// request gets the server's "no such game" answer. Returns the port and the certificate.
async fn https_server() -> (u16, Vec<u8>) {
    let made = rcgen::generate_simple_self_signed(vec!["localhost".into()]).unwrap();
    let der = made.cert.der().to_vec();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(made.key_pair.serialize_der()));
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(vec![CertificateDer::from(der.clone())], key)
    .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                // A client that does not trust the certificate ends the handshake here.
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let mut request = Vec::new();
                let mut chunk = [0u8; 1024];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match tls.read(&mut chunk).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => request.extend_from_slice(&chunk[..n]),
                    }
                }
                let body = r#"{"error":{"code":"unknown-game","message":"no such game"}}"#;
                let answer = format!(
                    "HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\n\
                     content-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = tls.write_all(answer.as_bytes()).await;
                let _ = tls.shutdown().await;
            });
        }
    });
    (port, der)
}

#[tokio::test]
async fn https_reaches_a_trusted_server_and_refuses_an_unknown_certificate() {
    let (port, cert) = https_server().await;
    let url = format!("https://localhost:{port}");

    // Trusting the server's certificate: the request goes through and the answer is read.
    let trusted = Client::with_roots(vec![cert]);
    match trusted.view(&url, "nope", "token").await {
        Err(SyncError::Refused { status, code, .. }) => {
            assert_eq!((status, code.as_str()), (404, "unknown-game"));
        }
        other => panic!("expected the server's refusal, got {other:?}"),
    }

    // With only the bundled public roots, a self-signed certificate is not accepted.
    let stranger = Client::new();
    match stranger.view(&url, "nope", "token").await {
        Err(SyncError::Offline(why)) => assert!(!why.is_empty()),
        other => panic!("expected a refused connection, got {other:?}"),
    }
}
