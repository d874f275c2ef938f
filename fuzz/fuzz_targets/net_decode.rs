//! Fuzzes the network protocol's decoder: any bytes give a message or a
//! `ProtocolError` (never a panic); a decoded message encodes to one line
//! that decodes to the same message; names that pass the check are printable.
#![no_main]

use boggle_protocol::names::{check_name, clean, is_printable};
use boggle_protocol::{self as protocol, ClientMsg};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(msg) = protocol::decode(data) else {
        return;
    };
    let line = protocol::encode(&msg);
    assert_eq!(line.matches('\n').count(), 1, "one line: {line:?}");
    assert_eq!(protocol::decode(line.as_bytes()).as_ref(), Ok(&msg));
    if let ClientMsg::Hello { name, .. } = &msg {
        if check_name(name).is_ok() {
            assert!(name.chars().all(is_printable));
            assert_eq!(clean(name), *name);
        }
    }
    let _ = protocol::decode_server(data);
});
