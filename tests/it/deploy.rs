//! The deployment files, checked offline: `deploy/k8s-indexed-job.yaml` parses
//! (with a real YAML parser) as an Indexed Job whose completion count is its
//! shard count (and the array size in the Slurm script's usage line, with the
//! same parallelism), and its container runs the same `boggle prove` command line as
//! `deploy/slurm-array.sh`: the same flags in the same order, the same rules,
//! size, bound, threads and word list, `--shard INDEX/$SHARDS` from the
//! scheduler's index, `--out` and `--resume`. The hunt's pair
//! (`deploy/k8s-hunt-job.yaml`, `deploy/slurm-hunt.sh`: `boggle best --hunt`)
//! is held to the same structure, with `--task` from the index and `--hunt`
//! a shared directory. Each check is also shown to fail on a drifted copy.
//! `scripts/slurm-check.sh` runs the prove Slurm script itself.

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

const K8S: &str = "deploy/k8s-indexed-job.yaml";
const SLURM: &str = "deploy/slurm-array.sh";
const HUNT_K8S: &str = "deploy/k8s-hunt-job.yaml";
const HUNT_SLURM: &str = "deploy/slurm-hunt.sh";

fn read(path: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The part of a Kubernetes Job this test reads.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Job {
    api_version: String,
    kind: String,
    spec: JobSpec,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct JobSpec {
    completion_mode: String,
    completions: u32,
    parallelism: u32,
    template: PodTemplate,
}

#[derive(Debug, Deserialize)]
struct PodTemplate {
    spec: PodSpec,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PodSpec {
    restart_policy: String,
    containers: Vec<Container>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Container {
    #[serde(default)]
    env: Vec<EnvVar>,
    command: Vec<String>,
    args: Vec<String>,
    resources: Resources,
    #[serde(default)]
    volume_mounts: Vec<VolumeMount>,
}

#[derive(Debug, Deserialize)]
struct EnvVar {
    name: String,
    value: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Resources {
    requests: HashMap<String, serde_norway::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct VolumeMount {
    mount_path: String,
}

/// A quantity as written (`cpu: "1"` and `cpu: 1` are the same request).
fn quantity(value: &serde_norway::Value) -> String {
    match value {
        serde_norway::Value::String(s) => s.clone(),
        serde_norway::Value::Number(n) => n.to_string(),
        other => format!("{other:?}"),
    }
}

/// Splits a shell command line into words the way `sh` does before expanding
/// them: quotes removed, `$` expansions kept as written, backslash-newline
/// joined, a `#` comment dropped.
fn shell_words(line: &str) -> Vec<String> {
    let line = line.replace("\\\n", " ");
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                word.extend(chars.by_ref().take_while(|&c| c != '\''));
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            '#' if !in_word => break,
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// `exec PROGRAM MODE --flag [value]...`, taken apart.
#[derive(Debug)]
struct ProveLine {
    program: String,
    flags: Vec<(String, Option<String>)>,
}

impl ProveLine {
    fn parse(words: &[String], mode: &str) -> Result<ProveLine, String> {
        match words {
            [exec, program, m, rest @ ..] if exec == "exec" && m == mode => {
                let mut flags = Vec::new();
                let mut rest = rest.iter().peekable();
                while let Some(flag) = rest.next() {
                    if !flag.starts_with("--") {
                        return Err(format!("'{flag}' is not a flag"));
                    }
                    let value = rest.next_if(|w| !w.starts_with("--")).cloned();
                    flags.push((flag.clone(), value));
                }
                Ok(ProveLine {
                    program: program.clone(),
                    flags,
                })
            }
            _ => Err(format!("not 'exec PROGRAM {mode} ...': {words:?}")),
        }
    }

    fn names(&self) -> Vec<&str> {
        self.flags.iter().map(|(f, _)| f.as_str()).collect()
    }

    /// The value of `flag`, or "" for a flag without one; `None` if absent.
    fn get(&self, flag: &str) -> Option<&str> {
        self.flags
            .iter()
            .find(|(f, _)| f == flag)
            .map(|(_, v)| v.as_deref().unwrap_or(""))
    }

    fn value(&self, flag: &str, file: &str) -> Result<&str, String> {
        self.get(flag)
            .ok_or_else(|| format!("{file}: no {flag} in the command line"))
    }
}

/// The Slurm script: its `exec` line, its `NAME=...` assignments and `#SBATCH` options.
struct SlurmScript {
    line: ProveLine,
    assigned: HashMap<String, String>,
    sbatch: HashMap<String, String>,
    /// The usage line's `--array=0-LAST%LIMIT`, as (LAST + 1, LIMIT).
    usage_array: Option<(u32, Option<u32>)>,
}

impl SlurmScript {
    fn parse(text: &str, mode: &str) -> Result<SlurmScript, String> {
        let mut assigned = HashMap::new();
        let mut sbatch = HashMap::new();
        let mut usage_array = None;
        let mut exec = None;
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            if let Some(usage) = line.strip_prefix("#   sbatch ") {
                let array = usage
                    .split_whitespace()
                    .find_map(|w| w.strip_prefix("--array=0-"));
                if let Some(array) = array {
                    let (last, limit) = array.split_once('%').unwrap_or((array, ""));
                    let last: u32 = last
                        .parse()
                        .map_err(|_| format!("usage: --array=0-{array}"))?;
                    usage_array = Some((last + 1, limit.parse().ok()));
                }
            } else if let Some(option) = line.strip_prefix("#SBATCH ") {
                let (name, value) = option.trim().split_once('=').unwrap_or((option.trim(), ""));
                sbatch.insert(name.to_string(), value.to_string());
            } else if line.starts_with("exec ") {
                let mut joined = line.to_string();
                while joined.ends_with('\\') {
                    joined.pop();
                    joined.push(' ');
                    joined.push_str(lines.next().unwrap_or(""));
                }
                exec = Some(joined);
            } else if let Some((name, value)) = line.split_once('=')
                && !name.is_empty()
                && name.chars().all(|c| c.is_ascii_uppercase() || c == '_')
            {
                let value = shell_words(value).join(" ");
                assigned.insert(name.to_string(), value);
            }
        }
        let exec = exec.ok_or("no exec line")?;
        Ok(SlurmScript {
            line: ProveLine::parse(&shell_words(&exec), mode)?,
            assigned,
            sbatch,
            usage_array,
        })
    }

    /// The default of `$NAME` for a variable set as `NAME=${NAME:-default}`
    /// (what the task gets when the submitter does not set it).
    fn default_of(&self, word: &str) -> Option<String> {
        let name = word.strip_prefix('$')?;
        let name = name
            .strip_prefix('{')
            .and_then(|n| n.strip_suffix('}'))
            .unwrap_or(name);
        let value = self.assigned.get(name)?;
        let inner = value.strip_prefix("${")?.strip_suffix('}')?;
        let (of, default) = inner.split_once(":-")?;
        (of == name && !default.starts_with('$')).then(|| default.to_string())
    }

    /// `flag`'s value with a variable replaced by its default.
    fn resolved(&self, flag: &str, file: &str) -> Result<String, String> {
        let word = self.line.value(flag, file)?;
        Ok(self.default_of(word).unwrap_or_else(|| word.to_string()))
    }
}

/// The file name a word list path ends in.
fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

macro_rules! ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(format!($($fmt)+));
        }
    };
}

/// A kind of job: its two files and the `boggle` mode their command lines run.
struct Kind {
    k8s: &'static str,
    slurm: &'static str,
    mode: &'static str,
}

/// `boggle prove`, a shard per task.
const PROVE: Kind = Kind {
    k8s: K8S,
    slurm: SLURM,
    mode: "prove",
};

/// `boggle best --hunt`, a seed stream per task.
const HUNT: Kind = Kind {
    k8s: HUNT_K8S,
    slurm: HUNT_SLURM,
    mode: "best",
};

/// A pair of files, parsed: the Job, the Slurm script and the pod's command line.
struct Pair {
    job: Job,
    slurm: SlurmScript,
    pod: ProveLine,
}

/// Checks what every kind of job must hold (the first disagreement): an
/// Indexed Job of one container, run once per index, with as many indices as
/// the Slurm usage line's array; both command lines run `boggle` with the
/// same flags in the same order, the same rules, size, `--above` and word
/// list, and one thread per CPU each scheduler gives a task.
fn check_pair(kind: &Kind, yaml: &str, script: &str, flags: &[&str]) -> Result<Pair, String> {
    let (k8s, sl) = (kind.k8s, kind.slurm);
    let job: Job = serde_norway::from_str(yaml).map_err(|e| format!("{k8s}: {e}"))?;
    let slurm = SlurmScript::parse(script, kind.mode).map_err(|e| format!("{sl}: {e}"))?;

    ensure!(
        job.api_version == "batch/v1" && job.kind == "Job",
        "{k8s}: not a batch/v1 Job"
    );
    let spec = &job.spec;
    ensure!(
        spec.completion_mode == "Indexed",
        "{k8s}: completionMode is {}, not Indexed (no $JOB_COMPLETION_INDEX)",
        spec.completion_mode
    );
    ensure!(
        spec.template.spec.restart_policy == "Never",
        "{k8s}: restartPolicy must be Never (per-index retries)"
    );
    ensure!(
        (1..=spec.completions).contains(&spec.parallelism),
        "{k8s}: parallelism {} outside 1..=completions",
        spec.parallelism
    );
    if let Some((tasks, limit)) = slurm.usage_array {
        ensure!(
            tasks == spec.completions && limit.is_none_or(|l| l == spec.parallelism),
            "{sl}'s usage runs {tasks} tasks {limit:?} at a time; {k8s} {} completions {} at a time",
            spec.completions,
            spec.parallelism
        );
    }
    let [container] = spec.template.spec.containers.as_slice() else {
        return Err(format!("{k8s}: one container expected"));
    };
    ensure!(
        container.command == ["/bin/sh", "-c"] && container.args.len() == 1,
        "{k8s}: the container must run one line with /bin/sh -c"
    );
    let pod = ProveLine::parse(&shell_words(&container.args[0]), kind.mode)
        .map_err(|e| format!("{k8s}: {e}"))?;
    let batch = &slurm.line;

    // The same program, the same flags in the same order.
    ensure!(
        pod.program == "boggle",
        "{k8s}: runs {}, not boggle",
        pod.program
    );
    ensure!(
        slurm.default_of(&batch.program).as_deref() == Some("boggle"),
        "{sl}: runs {}, not $BOGGLE (default boggle)",
        batch.program
    );
    ensure!(
        pod.names() == batch.names(),
        "the flags differ:\n  {k8s}:   {:?}\n  {sl}: {:?}",
        pod.names(),
        batch.names()
    );
    for flag in ["--rules", "--dict", "--size", "--above", "--threads"]
        .iter()
        .chain(flags)
    {
        pod.value(flag, k8s)?;
    }

    // The same search.
    for flag in ["--rules", "--size", "--above"] {
        let (p, s) = (pod.value(flag, k8s)?, slurm.resolved(flag, sl)?);
        ensure!(p == s, "{flag}: {p} in {k8s}, {s} in {sl}");
    }
    let (p, s) = (pod.value("--dict", k8s)?, slurm.resolved("--dict", sl)?);
    ensure!(
        file_name(p) == file_name(&s),
        "--dict: {p} in {k8s}, {s} in {sl} (not the same list)"
    );

    // One thread, the CPUs each scheduler gives a task.
    let threads = pod.value("--threads", k8s)?;
    let cpus = slurm.sbatch.get("--cpus-per-task").map(String::as_str);
    ensure!(
        batch
            .value("--threads", sl)?
            .starts_with("${SLURM_CPUS_PER_TASK"),
        "{sl}: --threads must follow --cpus-per-task ($SLURM_CPUS_PER_TASK)"
    );
    ensure!(
        cpus == Some(threads),
        "--threads {threads} in {k8s}, #SBATCH --cpus-per-task {cpus:?} in {sl}"
    );
    let requested = container.resources.requests.get("cpu").map(quantity);
    ensure!(
        requested.as_deref() == Some(threads),
        "{k8s}: --threads {threads} but requests cpu {requested:?}"
    );
    let index_from = slurm
        .assigned
        .get("INDEX")
        .map(String::as_str)
        .unwrap_or("");
    ensure!(
        index_from.starts_with("${SLURM_ARRAY_TASK_ID"),
        "{sl}: INDEX must be $SLURM_ARRAY_TASK_ID"
    );
    Ok(Pair { job, slurm, pod })
}

/// The directory flag `flag` writes to: a volume the pod mounts, `$OUT` in Slurm.
fn check_out(pair: &Pair, kind: &Kind, flag: &str) -> Result<(), String> {
    let (k8s, sl) = (kind.k8s, kind.slurm);
    let out = pair.pod.value(flag, k8s)?;
    let container = &pair.job.spec.template.spec.containers[0];
    ensure!(
        container.volume_mounts.iter().any(|m| m.mount_path == out),
        "{k8s}: {flag} {out} is not a mounted volume"
    );
    ensure!(
        pair.slurm.line.value(flag, sl)? == "$OUT",
        "{sl}: {flag} must be $OUT"
    );
    Ok(())
}

/// Checks the prove Job against itself and against the Slurm script: the
/// shared checks, then shard I of N (I the scheduler's index, N the shard
/// count, the Job's completions) into its own files, resumed.
fn check(yaml: &str, script: &str) -> Result<(), String> {
    let flags = ["--shard", "--out", "--resume"];
    let pair = check_pair(&PROVE, yaml, script, &flags)?;
    let spec = &pair.job.spec;
    let container = &spec.template.spec.containers[0];
    let shards: u32 = container
        .env
        .iter()
        .find(|e| e.name == "SHARDS")
        .and_then(|e| e.value.clone())
        .ok_or(format!("{K8S}: no SHARDS in the container's env"))?
        .parse()
        .map_err(|e| format!("{K8S}: SHARDS: {e}"))?;
    ensure!(
        spec.completions == shards,
        "{K8S}: completions {} but SHARDS {shards}: every shard must be one completion index",
        spec.completions
    );
    let (pod, batch) = (&pair.pod, &pair.slurm.line);
    let (p, s) = (pod.value("--shard", K8S)?, batch.value("--shard", SLURM)?);
    ensure!(
        p == "$JOB_COMPLETION_INDEX/$SHARDS" && s == "$INDEX/$SHARDS",
        "--shard: {p} in {K8S}, {s} in {SLURM}"
    );
    check_out(&pair, &PROVE, "--out")?;
    ensure!(
        pod.value("--resume", K8S)?.is_empty() && batch.value("--resume", SLURM)?.is_empty(),
        "--resume takes no value"
    );
    Ok(())
}

/// Checks the hunt Job against itself and against its Slurm script: the
/// shared checks, then the same `--min-len`, task I from the scheduler's
/// index, and the hunt's directory shared by every task.
fn check_hunt(yaml: &str, script: &str) -> Result<(), String> {
    let pair = check_pair(&HUNT, yaml, script, &["--min-len", "--task", "--hunt"])?;
    let (pod, batch) = (&pair.pod, &pair.slurm.line);
    let (p, s) = (
        pod.value("--min-len", HUNT_K8S)?,
        batch.value("--min-len", HUNT_SLURM)?,
    );
    ensure!(p == s, "--min-len: {p} in {HUNT_K8S}, {s} in {HUNT_SLURM}");
    let (p, s) = (
        pod.value("--task", HUNT_K8S)?,
        batch.value("--task", HUNT_SLURM)?,
    );
    ensure!(
        p == "$JOB_COMPLETION_INDEX" && s == "$INDEX",
        "--task: {p} in {HUNT_K8S}, {s} in {HUNT_SLURM}"
    );
    check_out(&pair, &HUNT, "--hunt")
}

/// Applies each edit (at its first place) to `text`, the file `name`, and
/// asserts that `check` fails on what the edit made.
#[track_caller]
fn assert_each_drift_fails<F: AsRef<str>, T: AsRef<str>>(
    name: &str,
    text: &str,
    edits: &[(F, T)],
    check: impl Fn(&str) -> Result<(), String>,
) {
    for (from, to) in edits {
        let (from, to) = (from.as_ref(), to.as_ref());
        let drifted = text.replacen(from, to, 1);
        assert!(drifted != text, "{name} does not hold '{from}'");
        match check(&drifted) {
            Ok(()) => panic!("{name} with '{from}' made '{to}' passed"),
            Err(e) => eprintln!("{name}, '{from}' made '{to}': {e}"),
        }
    }
}

#[test]
fn the_indexed_job_runs_the_slurm_scripts_command_line() {
    if let Err(e) = check(&read(K8S), &read(SLURM)) {
        panic!("{e}");
    }
}

/// Each edit, applied to a copy of the files, must make the check fail. The
/// edits are built from the files' own values, so changing a value in both
/// files (a new bound, a new shard count) needs no change here.
#[test]
fn the_check_fails_when_either_file_drifts() {
    let (yaml, script) = (read(K8S), read(SLURM));
    let job: Job = serde_norway::from_str(&yaml).expect("the Job parses");
    let container = &job.spec.template.spec.containers[0];
    let pod =
        ProveLine::parse(&shell_words(&container.args[0]), "prove").expect("the pod's line parses");
    let slurm = SlurmScript::parse(&script, "prove").expect("the Slurm script parses");
    let k8s_value = |flag: &str| pod.get(flag).expect("the flag is there").to_string();
    let slurm_default = |name: &str| {
        slurm
            .default_of(&format!("${name}"))
            .expect("the variable has a default")
    };
    let completions = job.spec.completions;
    let mut k8s_edits = vec![
        (
            format!("completions: {completions}"),
            format!("completions: {}", completions + 1),
        ),
        (
            format!("value: \"{completions}\""),
            format!("value: \"{}\"", completions + 1),
        ),
        (
            "completionMode: Indexed".into(),
            "completionMode: NonIndexed".into(),
        ),
        (
            "$JOB_COMPLETION_INDEX/$SHARDS".into(),
            format!("$JOB_COMPLETION_INDEX/{completions}"),
        ),
        (" --resume".into(), String::new()),
        ("prove --".into(), "prove --seed 1 --".into()),
    ];
    for flag in ["--rules", "--dict", "--size", "--above", "--threads"] {
        let value = k8s_value(flag);
        k8s_edits.push((format!("{flag} {value}"), format!("{flag} {value}0")));
    }
    assert_each_drift_fails(K8S, &yaml, &k8s_edits, |drifted| check(drifted, &script));
    let (tasks, _) = slurm.usage_array.expect("the usage line names --array");
    let cpus = &slurm.sbatch["--cpus-per-task"];
    let mut slurm_edits = vec![
        (
            format!("--cpus-per-task={cpus}"),
            format!("--cpus-per-task={cpus}0"),
        ),
        (" --resume".into(), String::new()),
        ("\"$INDEX/$SHARDS\"".into(), "\"$INDEX/4\"".into()),
        ("--rules classic".into(), "--rules big".into()),
        ("exec \"$BOGGLE\"".into(), "exec \"$BOGGLE\"x".into()),
        (
            format!("--array=0-{}", tasks - 1),
            format!("--array=0-{tasks}"),
        ),
    ];
    for name in ["SIZE", "ABOVE", "DICT"] {
        let value = slurm_default(name);
        slurm_edits.push((
            format!("${{{name}:-{value}}}"),
            format!("${{{name}:-{value}0}}"),
        ));
    }
    assert_each_drift_fails(SLURM, &script, &slurm_edits, |drifted| {
        check(&yaml, drifted)
    });
    assert!(check("kind: [unclosed", &script).is_err());
}

/// The flags both files of each kind pass are ones its `boggle` mode takes.
#[test]
fn every_flag_is_one_the_mode_takes() {
    for kind in [&PROVE, &HUNT] {
        let help = crate::common::boggle([kind.mode, "--help"])
            .output()
            .expect("the binary runs");
        let help = String::from_utf8_lossy(&help.stdout);
        let script =
            SlurmScript::parse(&read(kind.slurm), kind.mode).expect("the Slurm script parses");
        for flag in script.line.names() {
            assert!(
                help.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                    .any(|w| w == flag),
                "boggle {} --help does not list {flag}",
                kind.mode
            );
        }
    }
}

#[test]
fn the_hunt_job_runs_the_hunt_scripts_command_line() {
    if let Err(e) = check_hunt(&read(HUNT_K8S), &read(HUNT_SLURM)) {
        panic!("{e}");
    }
}

/// Each edit of the hunt's files, applied to a copy, must make its check fail.
#[test]
fn the_hunt_check_fails_when_either_file_drifts() {
    let (yaml, script) = (read(HUNT_K8S), read(HUNT_SLURM));
    let k8s_edits = [
        ("completionMode: Indexed", "completionMode: NonIndexed"),
        ("completions: 100", "completions: 101"),
        ("--task \"$JOB_COMPLETION_INDEX\"", "--task 0"),
        ("--hunt /out", "--hunt /elsewhere"),
        ("--above 13400", "--above 13000"),
        ("--size 5x5", "--size 4x4"),
        ("--min-len 3", "--min-len 4"),
        ("/data/yawl.txt", "/data/enable2k.txt"),
        ("--threads 1", "--threads 2"),
        ("best --rules", "best --seed 1 --rules"),
    ];
    assert_each_drift_fails(HUNT_K8S, &yaml, &k8s_edits, |drifted| {
        check_hunt(drifted, &script)
    });
    let slurm_edits = [
        ("--array=0-99", "--array=0-98"),
        ("--task \"$INDEX\"", "--task 0"),
        ("--hunt \"$OUT\"", "--hunt out"),
        ("${ABOVE:-13400}", "${ABOVE:-13000}"),
        ("--cpus-per-task=1", "--cpus-per-task=2"),
        ("exec \"$BOGGLE\" best", "exec \"$BOGGLE\" prove"),
    ];
    assert_each_drift_fails(HUNT_SLURM, &script, &slurm_edits, |drifted| {
        check_hunt(&yaml, drifted)
    });
}

#[test]
fn shell_words_splits_like_sh() {
    assert_eq!(
        shell_words("exec \"$B\" prove --x 'a b' c\\ d \\\n  --y \"${Z:-1}\" # comment"),
        ["exec", "$B", "prove", "--x", "a b", "c d", "--y", "${Z:-1}"]
    );
}
