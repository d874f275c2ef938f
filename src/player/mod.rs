//! What the player types and the clock a timed turn runs against: reading
//! lines and words as bytes with caps, and the `Keyboard` that ends a turn
//! on time.

pub mod input;
pub mod keyboard;
