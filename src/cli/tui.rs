//! `boggle tui`: the full-screen game's command line. Resolves the rules,
//! dictionary, board and time limit, checks there is a terminal, runs
//! [`crate::tui::terminal::run`], and records the finished game (today's
//! board, `--daily`, under a record of its own).

use super::CliError;
use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, ValueEnum};

use super::args::{DICTIONARY_PRESETS, rules_arg};
use super::{GameArgs, given_board, load_game_dictionary, report, roll_board};
use crate::play::records::{self, RecordKey, Records};
use crate::tui::app::{App, BoardSource};
use crate::tui::terminal;
use crate::tui::ui::{self, Look};
use boggle_game::Dictionary;
use boggle_game::daily::Daily;
use boggle_game::dictionary::{Level, WordList};
use boggle_game::game_board::GameBoard;
use boggle_game::random;
use boggle_game::rules::{Preset, Rules};
use boggle_game::text::plural;
use boggle_game::word_find::WordFind;

/// A turn's length when `--time` is not given: the sand timer of standard and
/// Big Boggle; Super Big Boggle's 6x6 and larger boards get its four minutes.
fn default_time(rules: &Rules) -> Duration {
    Duration::from_secs(if rules.cells() >= 36 { 240 } else { 180 })
}

/// The rules `boggle tui` plays without `--rules`: a player who has played
/// Boggle expects the classic ones; `--rules project4` is one flag away.
pub(crate) const DEFAULT_PRESET: Preset = Preset::Classic;

/// When to use colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorChoice {
    /// Colour unless NO_COLOR is set to anything non-empty.
    #[default]
    Auto,
    /// Always colour.
    Always,
    /// Never colour (the highlight stays, in reverse video).
    Never,
}

/// The full-screen game's flags.
#[derive(Debug, Args, Clone)]
#[command(
    mut_arg("preset", |arg| rules_arg(arg, DEFAULT_PRESET, &DICTIONARY_PRESETS)),
    mut_arg("time", |arg| arg.help(
        "Seconds for the game, 0 (untimed) to 86400 [default: 180, the sand timer; 240 from 6x6]"
    ))
)]
pub(crate) struct TuiArgs {
    /// Dictionary, seed, time and rules, as for the console game.
    #[command(flatten)]
    pub(crate) game: GameArgs,
    /// The computer's vocabulary under cs106b and tddd86: easy, medium, hard or perfect
    #[arg(long, value_name = "LEVEL", value_enum, default_value = "perfect")]
    pub(crate) level: Level,
    /// Do not read or write the records file
    #[arg(long)]
    pub(crate) no_record: bool,
    /// Colour: auto (honours NO_COLOR), always, never
    #[arg(long, value_name = "WHEN", default_value = "auto")]
    pub(crate) color: ColorChoice,
    /// Play today's board (UTC; see boggle daily): classic rules, 4x4, 3 minutes
    #[arg(long, conflicts_with_all = ["board", "seed", "preset", "size", "dice", "min_len", "min_points", "time"])]
    pub(crate) daily: bool,
}

/// Plays full-screen games, a new board each time the player asks.
pub(crate) fn run(args: &TuiArgs) -> Result<(), CliError> {
    let daily = args
        .daily
        .then(Daily::today)
        .transpose()
        .map_err(CliError::Daily)?;
    let rules = match &daily {
        Some(day) => day.rules.clone(),
        None => args
            .game
            .rules
            .resolve_with_dictionary(DEFAULT_PRESET, "tui")?,
    };
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(CliError::NoTerminal);
    }
    let time = match args.game.time {
        None => Some(default_time(&rules)),
        Some(0) => None,
        Some(seconds) => Some(Duration::from_secs(seconds)),
    };
    let dictionary = load_game_dictionary(&args.game, &rules, args.level)?;
    let word_list = dictionary.describe();
    let dictionary = Arc::new(dictionary);
    // One generator for the session: with --seed the boards played again are
    // repeatable too, and the first is the board that seed always gave.
    let mut rng = match args.game.seed {
        Some(seed) => random::seeded(seed),
        None => random::from_entropy(),
    };
    let finder = WordFind::with_rules(Arc::clone(&dictionary), rules.clone());
    let day_number = daily.as_ref().map(|day| day.number);
    let board = match daily
        .map(|day| day.board)
        .or(given_board(&args.game, &rules)?)
    {
        Some(board) => board,
        None => roll_board(&finder, &mut rng, args.game.min_points)?,
    };
    let key = record_key(&rules, args.game.dict.path.as_deref(), &dictionary, time);
    let day_key = daily_key(key.clone());
    let min_points = args.game.min_points;
    // Boards played again: rolled as the first (a --min-points that no board
    // meets falls back to any board rather than end the session).
    let boards = BoardSource::new(move |rules| {
        roll_board(&finder, &mut rng, min_points)
            .unwrap_or_else(|_| GameBoard::random(rules, &mut rng))
    });
    let mut app = App::new(WordFind::with_rules(dictionary, rules), board, time)
        .with_level(args.level)
        .with_boards(boards)
        .with_word_list(word_list);
    if let Some(number) = day_number {
        app = app.with_daily(number);
    }
    let look = Look {
        colour: use_colour(args.color, std::env::var_os("NO_COLOR")),
    };
    let mut warnings = Vec::new();
    let result = terminal::run(&mut app, look, |app| {
        if !args.no_record {
            // Today's board is not an ordinary game of its rules: its own record.
            let key = if app.daily().is_some() {
                &day_key
            } else {
                &key
            };
            let (note, warning) = record(key.clone(), app.score());
            app.set_record_note(note);
            warnings.extend(warning);
        }
    });
    // The terminal is restored by now, so these stay on the screen after the game.
    for warning in &warnings {
        report(warning);
    }
    Ok(result?)
}

/// Whether to colour: `auto` follows NO_COLOR (set and non-empty means no
/// colour). `boggle join`'s full screen decides the same way.
pub(super) fn use_colour(choice: ColorChoice, no_color: Option<std::ffi::OsString>) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => no_color.is_none_or(|value| value.is_empty()),
    }
}

/// The key a game is recorded under. The dictionary is keyed by its content
/// (so two different `words.txt` never share a record), named for reading by
/// the `--dict` file's name, `words.txt` found here, `built-in` (the course
/// list) or `player-list`.
fn record_key(
    rules: &Rules,
    dict: Option<&Path>,
    dictionary: &Dictionary,
    time: Option<Duration>,
) -> RecordKey {
    let name = match dict {
        Some(path) => path.file_name().map_or_else(
            || path.to_string_lossy().into_owned(),
            |name| name.to_string_lossy().into_owned(),
        ),
        None if rules.word_list == WordList::Player => "player-list".to_string(),
        // The rule `DictArgs::load` follows; the fingerprint, not the name, tells lists apart.
        None if Path::new(boggle_game::dictionary::DEFAULT_FILE).exists() => {
            boggle_game::dictionary::DEFAULT_FILE.to_string()
        }
        None => "built-in".to_string(),
    };
    RecordKey {
        preset: rules.preset.name().to_string(),
        size: format!("{}x{}", rules.rows, rules.cols),
        dictionary: records::dictionary_label(&name, records::fingerprint(dictionary.words())),
        time: time.map_or("untimed".to_string(), ui::clock),
    }
}

/// The record today's board is kept under: its own, beside the ordinary
/// games of its rules, size, dictionary and time.
fn daily_key(key: RecordKey) -> RecordKey {
    RecordKey {
        preset: "daily".to_string(),
        ..key
    }
}

/// Counts the finished game; the end screen's note and any warning for the player.
fn record(key: RecordKey, score: u32) -> (String, Option<String>) {
    let Some(path) = crate::play::records::default_path() else {
        return ("Not recorded: no HOME or XDG_DATA_HOME".to_string(), None);
    };
    match Records::update(&path, |records| records.add_game(key, score)) {
        Ok(updated) => {
            let (record, new_best) = updated.value;
            let games = plural(record.played, "game", "games");
            let best = if new_best { " (new best)" } else { "" };
            let note = format!("{} {games} here, best {}{best}", record.played, record.best);
            (note, updated.warning)
        }
        Err(e) => (
            "Not recorded: see the message after the game".to_string(),
            Some(format!("{}; this game was not recorded", super::chain(&e))),
        ),
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::{Cli, Command};

    #[test]
    fn parses_its_flags() {
        let cli = Cli::try_parse_from([
            "boggle",
            "tui",
            "--rules",
            "classic",
            "--size",
            "5",
            "--time",
            "0",
            "--seed",
            "3",
            "--no-record",
            "--color",
            "never",
        ])
        .expect("valid");
        let Some(Command::Tui(args)) = cli.command else {
            panic!("tui parses as the tui command");
        };
        assert_eq!(args.game.time, Some(0));
        assert!(args.no_record);
        assert_eq!(args.color, ColorChoice::Never);
        assert!(Cli::try_parse_from(["boggle", "tui", "--color", "pink"]).is_err());
    }

    /// Without `--rules` the tui plays the classic rules,
    /// and says so in its help.
    #[test]
    fn the_tui_plays_classic_rules_unless_told() {
        use clap::CommandFactory;
        let cli = Cli::try_parse_from(["boggle", "tui"]).expect("valid");
        let Some(Command::Tui(args)) = cli.command else {
            panic!("tui parses as the tui command");
        };
        let rules = args
            .game
            .rules
            .resolve_with_dictionary(DEFAULT_PRESET, "tui")
            .expect("valid");
        assert_eq!(rules.preset, Preset::Classic);
        let mut command = Cli::command();
        let help = command
            .find_subcommand_mut("tui")
            .expect("a tui command")
            .render_help()
            .to_string();
        assert!(help.contains("[default: classic]"), "{help}");
    }

    #[test]
    fn colour_follows_no_color() {
        assert!(use_colour(ColorChoice::Auto, None));
        assert!(use_colour(ColorChoice::Auto, Some("".into())));
        assert!(!use_colour(ColorChoice::Auto, Some("1".into())));
        assert!(use_colour(ColorChoice::Always, Some("1".into())));
        assert!(!use_colour(ColorChoice::Never, None));
    }

    #[test]
    fn records_are_kept_per_preset_size_dictionary_and_time() {
        let cli =
            Cli::try_parse_from(["boggle", "tui", "--dict", "/tmp/my words.txt"]).expect("valid");
        let Some(Command::Tui(args)) = cli.command else {
            panic!("tui parses as the tui command");
        };
        let rules = args.game.rules.resolve(Preset::Project4).expect("valid");
        let words = Dictionary::from_words(["cat", "dog"]);
        let dict = args.game.dict.path.as_deref();
        let key = record_key(&rules, dict, &words, Some(default_time(&rules)));
        let hash = records::fingerprint(["CAT", "DOG"]);
        assert_eq!(
            key.describe(),
            format!("classic 4x4 my words.txt@{hash:016x} 3:00")
        );
        let super_big = Rules::sized(Preset::Classic, 6, 6);
        assert_eq!(default_time(&super_big), Duration::from_secs(240));
    }

    #[test]
    fn todays_board_is_recorded_apart_from_the_ordinary_games() {
        let cli = Cli::try_parse_from(["boggle", "tui", "--daily"]).expect("valid");
        let Some(Command::Tui(args)) = cli.command else {
            panic!("tui parses as the tui command");
        };
        assert!(args.daily);
        let rules = Rules::preset(Preset::Classic);
        let words = Dictionary::from_words(["cat"]);
        let key = record_key(&rules, None, &words, Some(default_time(&rules)));
        let day = daily_key(key.clone());
        assert_ne!(day, key);
        assert!(
            day.describe().starts_with("daily 4x4 "),
            "{}",
            day.describe()
        );
        let mut saved = Records::default();
        saved.add_game(day.clone(), 9);
        assert!(
            saved.get(&key).is_none(),
            "not counted in the classic record"
        );
        assert_eq!(saved.get(&day).map(|r| (r.played, r.best)), Some((1, 9)));
    }

    #[test]
    fn records_are_keyed_by_the_dictionary_content_not_its_name() {
        let rules = Rules::sized(Preset::Project4, 4, 4);
        let ours = Path::new("/a/words.txt");
        let theirs = Path::new("/b/words.txt");
        let key = |path, words: &Dictionary| record_key(&rules, Some(path), words, None);
        let list = Dictionary::from_words(["cat", "dog"]);
        let other = Dictionary::from_words(["cat", "dot"]);
        // Same name, different words: different records.
        assert_ne!(key(ours, &list), key(theirs, &other));
        // Same words, however the file spells them: the same record.
        let shuffled = Dictionary::from_words(["DOG", "Cat", "cat"]);
        assert_eq!(key(ours, &list), key(theirs, &shuffled));
    }

    #[test]
    fn a_dict_name_with_a_tab_is_still_recorded() {
        let rules = Rules::sized(Preset::Project4, 4, 4);
        let words = Dictionary::from_words(["cat"]);
        let key = record_key(&rules, Some(Path::new("/tmp/a\tb.txt")), &words, None);
        assert!(key.dictionary.starts_with("a?b.txt@"), "{}", key.dictionary);
        let mut saved = Records::default();
        saved.add_game(key.clone(), 5);
        let reread = Records::parse(&saved.to_text()).expect("parses");
        assert_eq!(reread.get(&key).map(|r| (r.played, r.best)), Some((1, 5)));
    }
}
