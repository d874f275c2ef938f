//! What the player types and the clock a timed turn runs against: reading
//! lines and words as bytes with caps, the `Keyboard` that ends a turn on
//! time, and the signals (Ctrl-C, a kill) that end a game early.

pub(crate) mod input;
pub(crate) mod keyboard;
pub(crate) mod signals;
