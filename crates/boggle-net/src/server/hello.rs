//! A `hello`, step by step: the address's failed tries and the password,
//! the room asked for (a named room, or a solo game's room of one), found
//! by its name's look-alike key or opened within the caps (its task
//! started), a daily room's game for the player's seat, then the room's
//! own checks as its task seats the client, whose answer the `hello`
//! waits for.

use super::rooms::{Join, find_room, room_gone};
use super::*;
use crate::room::DailyGame;
use rand::RngCore;
use tokio::sync::oneshot;
/// What a `hello` asks for.
pub(super) struct Hello<'a> {
    pub(super) name: &'a str,
    pub(super) room: &'a str,
    pub(super) password: Option<String>,
    pub(super) token: Option<String>,
    pub(super) solo: Option<Solo>,
}

/// The room a `hello` asks for, and its settings: the named room on the
/// server's settings, or a new room of one (a solo game) on the settings
/// the player chose from what the server allows.
fn room_asked(
    shared: &Shared,
    room: &str,
    solo: Option<&Solo>,
) -> Result<(String, Arc<RoomConfig>), Refusal> {
    let Some(solo) = solo else {
        return Ok((room.to_string(), Arc::clone(&shared.config.room)));
    };
    let config = crate::solo::config(&shared.config.room, solo)
        .map_err(|why| Refusal::new(ErrorCode::BadMessage, why))?;
    let name = format!("solo-{}", &fresh_token()[..12]);
    Ok((name, Arc::new(config)))
}

/// Checks a `hello` and seats the client: the address's failed tries,
/// password, room name, room caps, then the room's own checks. The room's
/// channel on success.
pub(super) async fn hello(
    shared: &Arc<Shared>,
    ip: IpAddr,
    conn: ConnId,
    asked: Hello<'_>,
    client: &Client,
    now: Instant,
) -> Result<RoomTx, Refusal> {
    check_password(shared, ip, &asked, now)?;
    let (room, config) = room_asked(shared, asked.room, asked.solo.as_ref())?;
    if let Err(why) = check_room(&room) {
        return Err(Refusal::new(ErrorCode::BadRoom, why.to_string()));
    }
    let wanted = name_key(&room);
    let day = config.daily;
    let (answer, answered) = oneshot::channel();
    let mut join = Join {
        conn,
        name: asked.name.to_string(),
        token: asked.token.clone(),
        fresh: fresh_token(),
        daily: None,
        client: client.clone(),
        at: now,
        answer,
    };
    // The join is sent under the map's lock, so the room cannot take
    // itself out between being found and being sent it.
    let tx = {
        let mut rooms = lock(&shared.rooms);
        let tx = match find_room(&rooms, &wanted) {
            Some((_, filed)) => filed.tx.clone(),
            None if shared.stopping.load(Ordering::Relaxed) => {
                return Err(Refusal::new(
                    ErrorCode::ServerFull,
                    "the server is shutting down: no new games now",
                ));
            }
            None => {
                let key = wanted.as_str().to_string();
                let tx = open_room(shared, rooms.len(), ip, &room, key.clone(), config)?;
                let filed = Filed {
                    key: wanted,
                    tx: tx.clone(),
                };
                rooms.insert(key, filed);
                shared.metrics.rooms.set(rooms.len() as f64);
                tx
            }
        };
        // A new room of today's board: what the game is for the player's
        // seat, decided in memory before the welcome that it follows.
        if let (Some(day), Some(solo)) = (day, &asked.solo)
            && check_name(asked.name).is_ok()
        {
            let player = solo.player.as_deref();
            join.daily = Some(match shared.config.store.as_ref() {
                Some(store) => store.begin(day, player, asked.name, ip, fresh_token()),
                None => DailyGame::unkept(day, player, fresh_token()),
            });
        }
        if tx.send(Event::Join(Box::new(join))).is_err() {
            return Err(room_gone());
        }
        tx
    };
    match answered.await {
        Ok(Ok(())) => Ok(tx),
        Ok(Err(refusal)) => {
            if refusal.code == ErrorCode::BadToken {
                shared.addresses.failed(ip, now);
            }
            Err(refusal)
        }
        Err(_) => Err(room_gone()),
    }
}

/// The throttle on an address's wrong guesses, then the password.
fn check_password(
    shared: &Shared,
    ip: IpAddr,
    asked: &Hello<'_>,
    now: Instant,
) -> Result<(), Refusal> {
    let guarded = shared.config.password.is_some() || asked.token.is_some();
    if guarded && let Err(Throttled::Guessing(wait)) = shared.addresses.may_try(ip, now) {
        let code = if shared.config.password.is_some() {
            ErrorCode::Password
        } else {
            ErrorCode::BadToken
        };
        return Err(Refusal::new(
            code,
            format!(
                "too many wrong passwords or tokens from your address: try again in {} s",
                wait.as_secs().max(1)
            ),
        ));
    }
    if let Some(expected) = &shared.config.password {
        let given = asked.password.as_deref().unwrap_or_default();
        if !constant_time_eq(given.as_bytes(), expected.as_bytes()) {
            shared.addresses.failed(ip, now);
            return Err(Refusal::new(ErrorCode::Password, "wrong password"));
        }
    }
    Ok(())
}

/// A new room named `name` on `config`, made by `ip`, its task started,
/// if the server's and the address's room caps allow: its channel, to be
/// filed under `key`.
fn open_room(
    shared: &Arc<Shared>,
    open: usize,
    ip: IpAddr,
    name: &str,
    key: String,
    config: Arc<RoomConfig>,
) -> Result<RoomTx, Refusal> {
    let limits = &shared.config.limits;
    let shares = &shared.room_shares;
    let refused = |short| {
        let why = shares.caps().why_short(short, "rooms", "join one of them");
        Refusal::new(ErrorCode::TooManyRooms, why)
    };
    if open >= limits.max_rooms {
        return Err(refused(Short::Whole));
    }
    let maker = shares.take(ip).map_err(refused)?;
    let rng = match shared.config.seed {
        Some(seed) => random::seeded(seed),
        None => random::from_entropy(),
    };
    if shared.room_lines.may_log(Instant::now()) {
        tracing::info!(room = name, %ip, "room opened");
    }
    let word_find = Arc::clone(&config.word_find);
    let room = Room::new(name, config, rng);
    Ok(super::rooms::open(shared, key, room, word_find, maker))
}

/// A random token naming a seat: 128 bits from the operating system's generator.
fn fresh_token() -> String {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
