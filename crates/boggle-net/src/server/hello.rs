//! A `hello`, step by step: the address's failed tries and the password,
//! the room asked for (a named room, or a solo game's room of one), found
//! by its name's look-alike key or opened within the caps, a daily room's
//! game for the player's seat, then the room's own checks as the client
//! sits; and, after that game's round, the store's word on its result
//! back to the room ([`tell_kept`]).

use super::*;
use crate::room::Kept;
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
/// key and slot on success.
pub(super) fn hello(
    shared: &Shared,
    ip: IpAddr,
    conn: ConnId,
    asked: Hello<'_>,
    client: &Client,
    now: Instant,
) -> Result<Joined, Refusal> {
    check_password(shared, ip, &asked, now)?;
    let (room, config) = room_asked(shared, asked.room, asked.solo.as_ref())?;
    if let Err(why) = check_room(&room) {
        return Err(Refusal::new(ErrorCode::BadRoom, why.to_string()));
    }
    let wanted = name_key(&room);
    let day = config.daily;
    // The map stays locked through the join so a room cannot be forgotten
    // between being found and being joined.
    let mut rooms = lock(&shared.rooms);
    let (key, slot) = match find_room(&rooms, &wanted) {
        Some((key, filed)) => (key.clone(), Arc::clone(&filed.slot)),
        None if shared.stopping.load(Ordering::Relaxed) => {
            return Err(Refusal::new(
                ErrorCode::ServerFull,
                "the server is shutting down: no new games now",
            ));
        }
        None => {
            let slot = open_room(shared, rooms.len(), ip, &room, config)?;
            let key = wanted.as_str().to_string();
            let filed = Filed {
                key: wanted,
                slot: Arc::clone(&slot),
            };
            rooms.insert(key.clone(), filed);
            (key, slot)
        }
    };
    let mut guard = lock(&slot);
    // A new room of today's board: what the game is for the player's seat,
    // decided in memory before the welcome that it follows.
    if let (Some(day), Some(solo)) = (day, &asked.solo)
        && check_name(asked.name).is_ok()
    {
        let store = shared.config.store.as_ref();
        let player = solo.player.as_deref();
        let game = crate::store::daily_game(store, day, player, asked.name, ip, fresh_token());
        guard.room.set_daily(game);
    }
    if let Err(refusal) = seat(&mut guard, conn, &asked, client, now) {
        if refusal.code == ErrorCode::BadToken {
            shared.addresses.failed(ip, now);
        }
        let abandoned = guard.room.is_abandoned();
        drop(guard);
        if abandoned {
            rooms.remove(&key);
            if shared.room_lines.may_log(now) {
                tracing::info!(room = room.as_str(), "room closed");
            }
        }
        return Err(refusal);
    }
    drop(guard);
    Ok((key, slot))
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

/// A new room named `name` on `config`, made by `ip`, if the server's and
/// the address's room caps allow.
fn open_room(
    shared: &Shared,
    open: usize,
    ip: IpAddr,
    name: &str,
    config: Arc<RoomConfig>,
) -> Result<Arc<Mutex<Slot>>, Refusal> {
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
    Ok(Arc::new_cyclic(|me| {
        Mutex::new(Slot {
            room: Room::new(name, config, rng),
            clients: HashMap::new(),
            budget: Arc::clone(&shared.budget),
            rounds_counted: 0,
            store: shared.config.store.clone(),
            me: me.clone(),
            _maker: maker,
        })
    }))
}

/// Hands the store's answer on a room's daily result to the room, once it
/// comes: the room says it to its player (`daily` with `kept`).
pub(super) async fn tell_kept(slot: Weak<Mutex<Slot>>, answer: oneshot::Receiver<Kept>) {
    // A store that drops the question without an answer could not keep it.
    let kept = answer.await.unwrap_or_else(|_| {
        Kept::No("the server's results store stopped before saving this result".into())
    });
    let Some(slot) = slot.upgrade() else { return };
    let mut slot = lock(&slot);
    slot.room.daily_kept(kept);
    dispatch(&mut slot);
}

/// Seats the client in the room: registered first so the welcome reaches
/// it, taken out again on refusal. A seat taken over with a token: the old
/// connection is told why (`replaced`) and closed, so its client does not
/// take the seat back in turn.
fn seat(
    slot: &mut Slot,
    conn: ConnId,
    asked: &Hello<'_>,
    client: &Client,
    now: Instant,
) -> Result<(), Refusal> {
    slot.clients.insert(conn, client.clone());
    let joined = slot
        .room
        .join(conn, asked.name, asked.token.as_deref(), fresh_token(), now);
    if let Err(refusal) = joined {
        slot.clients.remove(&conn);
        return Err(refusal);
    }
    let stale: Vec<ConnId> = slot
        .clients
        .keys()
        .copied()
        .filter(|c| *c != conn && !slot.room.has_conn(*c))
        .collect();
    for old in stale {
        if let Some(client) = slot.clients.remove(&old) {
            client.replace();
        }
    }
    dispatch(slot);
    Ok(())
}

/// A random token naming a seat: 128 bits from the operating system's generator.
fn fresh_token() -> String {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
