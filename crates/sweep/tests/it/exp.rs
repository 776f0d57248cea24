//! Sweep files: checked with errors naming the line and key, expanded
//! into jobs with stable keys.

use std::path::Path;

use gfxcache_sweep::{Experiment, JobKind, PipelineMode, StudyKind, SweepError};

const EXAMPLE: &str = r#"
studies = ["sim", "gspc"]
policies = ["lru", "drrip", "gspc", "gspztc+ucd"]

[frames]
scenes = ["city", "racer"]
resolutions = ["640x360"]

[cache]
sizes = ["2MiB", "4MiB", "8MiB"]
"#;

fn parse(text: &str) -> Result<Experiment, SweepError> {
    Experiment::parse(text, Path::new("exp.toml"))
}

#[test]
fn the_example_expands_into_its_jobs() {
    let e = parse(EXAMPLE).unwrap();
    assert_eq!(e.name, "exp");
    assert_eq!(e.frames.len(), 2);
    assert!(e
        .frames
        .iter()
        .all(|f| (f.width, f.height, f.frames, f.warmup) == (640, 360, 1, 0)));
    assert!(e
        .frames
        .iter()
        .all(|f| f.mode == PipelineMode::Imr && f.preset.is_none()));
    assert_eq!(e.geometries.len(), 3);
    assert_eq!(e.geometries[1].size_bytes, 4 << 20);
    assert_eq!(
        (e.geometries[0].ways, e.geometries[0].block_bytes),
        (16, 64)
    );
    let jobs = e.jobs();
    // Per scene: sim at three sizes (four policies each), then gspc.
    assert_eq!(jobs.len(), 2 * (3 + 1));
    assert!(matches!(&jobs[0].kind, JobKind::Sim { policies, .. } if policies.len() == 4));
    assert_eq!(jobs[3].kind, JobKind::Study(StudyKind::Gspc));
    assert_eq!(jobs[4].frame.scene, "racer");
    // Keys: stable, distinct, and a changed point changes only its jobs.
    let keys: Vec<String> = jobs.iter().map(|j| j.key()).collect();
    let mut distinct = keys.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), keys.len());
    assert_eq!(
        parse(EXAMPLE)
            .unwrap()
            .jobs()
            .iter()
            .map(|j| j.key())
            .collect::<Vec<_>>(),
        keys
    );
    let changed = parse(&EXAMPLE.replace("\"8MiB\"", "\"16MiB\""))
        .unwrap()
        .jobs();
    let same = changed
        .iter()
        .zip(&jobs)
        .filter(|(a, b)| a.key() == b.key())
        .count();
    assert_eq!(same, jobs.len() - 2, "only the two 8 MiB jobs change");
    assert!(jobs[0]
        .slug()
        .starts_with("city-640x360-imr-f1w0-sim-2097152-16w-64b-"));
    assert_eq!(
        jobs[0].frame.key(),
        jobs[3].frame.key(),
        "one frame for every job on it"
    );
}

#[test]
fn studies_run_on_the_frames_of_their_mode_and_suites_expand() {
    let e = parse(
        r#"
studies = ["mrc", "gspc", "nbtc"]
[frames]
suites = ["mobile"]
scenes = ["city"]
modes = ["imr", "tbr"]
"#,
    )
    .unwrap();
    let mobile = gfxcache_render::scene::builtin::Suite::Mobile
        .scenes()
        .count();
    assert_eq!(e.frames.len(), 2 * (1 + mobile));
    let tbr = e
        .frames
        .iter()
        .find(|f| f.mode == PipelineMode::Tbr)
        .unwrap();
    assert_eq!((tbr.width, tbr.height), (1960, 768));
    let jobs = e.jobs();
    for j in &jobs {
        match j.kind {
            JobKind::Study(StudyKind::Gspc) => assert_eq!(j.frame.mode, PipelineMode::Imr),
            JobKind::Study(StudyKind::Nbtc) => assert_eq!(j.frame.mode, PipelineMode::Tbr),
            _ => {}
        }
    }
    assert_eq!(
        jobs.len(),
        e.frames.len() * 2,
        "mrc everywhere, one study per mode"
    );
}

/// `(text, line, words the message must hold)`.
fn refused(text: &str, line: usize, words: &[&str]) {
    let e = parse(text).unwrap_err();
    let msg = e.to_string();
    assert!(msg.starts_with(&format!("exp.toml:{line}:")), "{msg}");
    for w in words {
        assert!(msg.contains(w), "{w:?} not in {msg}");
    }
}

#[test]
fn bad_files_are_refused_naming_line_and_key() {
    refused("studies = [\"sim\"\n", 1, &[]);
    refused(
        "studies = [\"sim\"]\n[frames]\nscenes = [\"city\"]\ncolour = 1\n",
        4,
        &["colour"],
    );
    refused(
        "studies = [\"nope\"]\n[frames]\nscenes = [\"city\"]\n",
        1,
        &["studies", "nope", "gspc"],
    );
    refused(
        "studies = [\"mrc\"]\n[frames]\nscenes = [\"nowhere\"]\n",
        3,
        &["frames.scenes", "nowhere"],
    );
    refused(
        "studies = [\"mrc\"]\n[frames]\nscenes = [\"city\"]\nresolutions = [\"12x\"]\n",
        4,
        &["frames.resolutions", "WIDTHxHEIGHT"],
    );
    refused(
        "studies = [\"mrc\"]\n[frames]\nscenes = [\"city\"]\nmodes = [\"deferred\"]\n",
        4,
        &["frames.modes", "imr or tbr"],
    );
    refused(
        "studies = [\"mrc\"]\n[frames]\nscenes = [\"city\"]\npresets = [\"fancy\"]\n",
        4,
        &["frames.presets", "known"],
    );
    refused(
        "studies = [\"mrc\"]\n[frames]\nsuites = [\"console\"]\n",
        3,
        &["frames.suites"],
    );
    refused(
        "studies = [\"mrc\"]\npolicies = [\"fifo\", \"belady2\"]\n[frames]\nscenes = [\"city\"]\n",
        2,
        &["policies", "belady2"],
    );
    refused(
        "studies = [\"sim\"]\npolicies = [\"lru\"]\n[frames]\nscenes = [\"city\"]\n",
        1,
        &["sim", "[cache]"],
    );
    refused("studies = [\"sim\"]\npolicies = [\"lru\"]\n[frames]\nscenes = [\"city\"]\n[cache]\nsizes = [\"lots\"]\n", 6, &["cache.sizes", "lots"]);
    refused("studies = [\"sim\"]\npolicies = [\"lru\"]\n[frames]\nscenes = [\"city\"]\n[cache]\nsizes = [\"3KiB\"]\nways = [5]\n", 7, &["cache", "5 ways"]);
    refused(
        "studies = [\"mrc\", \"tcor\"]\n[frames]\nscenes = [\"city\"]\n",
        1,
        &["tcor", "tbr"],
    );
    refused(
        "studies = [\"mrc\"]\n[frames]\nscenes = [\"city\"]\nframes = [0]\n",
        4,
        &["frames.frames", "1 to 64"],
    );
}

#[test]
fn study_flags_become_command_line_words_and_keys() {
    let text = format!(
        "{EXAMPLE}banks = [1, 4]\nindex = [\"xor\"]\n\
         [flags.gspc]\ntimeline = \"none\"\nsingle-thread = true\njson-free = false\nsizes = [1, 2]\n\
         [flags.render]\nfps = 8\n"
    );
    let e = parse(&text).unwrap();
    assert_eq!(e.geometries.len(), 6);
    assert_eq!(
        (e.geometries[1].banks, e.geometries[1].index.as_str()),
        (4, "xor")
    );
    assert_eq!(
        e.flags_of(StudyKind::Gspc),
        ["--single-thread", "--sizes", "1,2", "--timeline", "none"]
    );
    assert!(e.flags_of(StudyKind::Sim).is_empty());
    assert!(e.frames.iter().all(|f| f.render_flags == ["--fps", "8"]));
    let jobs = e.jobs();
    let gspc = jobs
        .iter()
        .find(|j| j.kind == JobKind::Study(StudyKind::Gspc))
        .unwrap();
    assert_eq!(gspc.flags, e.flags_of(StudyKind::Gspc));
    // A study's flags change its jobs' keys, not the others'.
    let plain = parse(&format!(
        "{EXAMPLE}banks = [1, 4]\nindex = [\"xor\"]\n[flags.render]\nfps = 8\n"
    ))
    .unwrap()
    .jobs();
    for (a, b) in jobs.iter().zip(&plain) {
        assert_eq!(
            a.key() == b.key(),
            a.kind.study() == StudyKind::Sim,
            "{}",
            a.slug()
        );
    }
}

#[test]
fn flags_the_sweep_sets_itself_or_for_no_study_are_refused() {
    refused(
        &format!("{EXAMPLE}[flags.gspc]\nwidth = 100\n"),
        12,
        &["flags.gspc.width", "does not set"],
    );
    refused(
        &format!("{EXAMPLE}[flags.nbtc]\nlatencies = \"50\"\n"),
        11,
        &["flags.nbtc", "a study the file runs"],
    );
    refused(
        &format!("{EXAMPLE}[flags.gpu]\nx = 1\n"),
        11,
        &["flags.gpu", "render or a study"],
    );
    refused(
        &format!("{EXAMPLE}[flags.gspc]\nx = {{ a = 1 }}\n"),
        12,
        &["flags.gspc.x"],
    );
    refused(
        "studies = [\"nuca\"]\n[frames]\nscenes = [\"racer\"]\nmodes = [\"tbr\"]\nframes = [2]\n",
        1,
        &["nuca", "one frame"],
    );
}

#[test]
fn the_examples_directory_holds_valid_sweeps() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/sweeps");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let e = Experiment::read(&path).unwrap_or_else(|e| panic!("{e}"));
            assert!(!e.jobs().is_empty(), "{}", path.display());
            n += 1;
        }
    }
    assert!(n > 0, "no example in {}", dir.display());
}

#[test]
fn repeated_axis_values_give_one_job_each() {
    let e = parse(
        r#"
studies = ["sim", "mrc"]
policies = ["lru", "LRU", "drrip", "lru"]
[frames]
scenes = ["city", "city", "atrium"]
resolutions = ["160x90", "160x90"]
frames = [1, 1]
modes = ["imr", "imr"]
[cache]
sizes = ["256KiB", "256KiB", "262144", "512KiB"]
ways = [16, 16]
blocks = [64, 64]
banks = [1, 1]
index = ["modulo", "modulo"]
"#,
    )
    .unwrap();
    assert_eq!(e.frames.len(), 2);
    assert_eq!(e.frames[0].scene, "city");
    assert_eq!(
        e.geometries
            .iter()
            .map(|g| g.size_bytes)
            .collect::<Vec<_>>(),
        [262144, 524288]
    );
    assert_eq!(e.policies, ["lru", "drrip"]);
    let jobs = e.jobs();
    // Per scene: sim at two sizes, then mrc.
    assert_eq!(jobs.len(), 2 * (2 + 1));
    let mut keys: Vec<String> = jobs.iter().map(|j| j.key()).collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), jobs.len());
}

/// A sweep file naming `scene.obj` beside it, in a fresh directory.
fn sweep_with_scene_file(dir: &Path) -> std::path::PathBuf {
    std::fs::write(
        dir.join("scene.obj"),
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",
    )
    .unwrap();
    let exp = dir.join("exp.toml");
    std::fs::write(
        &exp,
        "studies = [\"mrc\"]\n[frames]\nscenes = [\"scene.obj\"]\nresolutions = [\"160x90\"]\n",
    )
    .unwrap();
    exp
}

#[test]
fn a_scene_file_is_found_beside_the_sweep_file_and_keyed_by_its_contents() {
    let root = tempfile::tempdir().unwrap();
    let exp = sweep_with_scene_file(root.path());
    let e = Experiment::read(&exp).unwrap();
    let scene = root.path().join("scene.obj");
    assert_eq!(Path::new(&e.frames[0].scene), scene);
    assert_eq!(e.frames[0].inputs.len(), 1);
    let key = e.jobs()[0].key();
    let frame_key = e.frames[0].key();

    // Only its modification time changes: the same keys.
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&scene)
        .unwrap()
        .set_modified(later)
        .unwrap();
    let touched = Experiment::read(&exp).unwrap();
    assert_eq!(touched.jobs()[0].key(), key);

    // Its contents change: new keys for the frame and its job.
    std::fs::write(&scene, "v 0 0 0\nv 2 0 0\nv 0 2 0\nf 1 2 3\n").unwrap();
    let edited = Experiment::read(&exp).unwrap();
    assert_ne!(edited.jobs()[0].key(), key);
    assert_ne!(edited.frames[0].key(), frame_key);

    // An absolute path is kept as it is.
    let abs = root.path().join("abs.toml");
    std::fs::write(
        &abs,
        format!(
            "studies = [\"mrc\"]\n[frames]\nscenes = [{:?}]\n",
            scene.display().to_string()
        ),
    )
    .unwrap();
    assert_eq!(
        Path::new(&Experiment::read(&abs).unwrap().frames[0].scene),
        scene
    );
}

#[test]
fn a_scene_file_beside_a_sweep_file_in_the_current_directory_keeps_its_path() {
    let text = "studies = [\"mrc\"]\n[frames]\nscenes = [\"a/scene.obj\"]\n";
    for file in ["exp.toml", "./exp.toml"] {
        let e = Experiment::parse(text, Path::new(file)).unwrap();
        assert_eq!(e.frames[0].scene, "a/scene.obj", "{file}");
    }
    let e = Experiment::parse(text, Path::new("sub/exp.toml")).unwrap();
    assert_eq!(Path::new(&e.frames[0].scene), Path::new("sub/a/scene.obj"));
}

#[test]
fn a_missing_scene_file_is_refused_when_the_sweep_is_read() {
    let root = tempfile::tempdir().unwrap();
    let exp = sweep_with_scene_file(root.path());
    std::fs::remove_file(root.path().join("scene.obj")).unwrap();
    let err = Experiment::read(&exp).unwrap_err().to_string();
    assert!(err.contains("scene") && err.contains("scene.obj"), "{err}");
}

/// Sets `path`'s modification time an hour ahead, its bytes untouched.
fn touch(path: &Path) {
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(later)
        .unwrap();
}

/// The keys of `exp`'s first frame and of every job, read afresh.
fn keys(exp: &Path) -> (String, Vec<String>) {
    let e = Experiment::read(exp).unwrap_or_else(|e| panic!("{e}"));
    (
        e.frames[0].key(),
        e.jobs().iter().map(|j| j.key()).collect(),
    )
}

/// A 2x2 TGA, uncompressed true colour, its texels `fill`.
fn tga(fill: u8) -> Vec<u8> {
    let mut t = vec![0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 32, 8];
    t.extend([fill; 16]);
    t
}

/// A sweep (mrc, two resolutions) of scene file `scene` in `dir`.
fn sweep_of(dir: &Path, scene: &str) -> std::path::PathBuf {
    let exp = dir.join("exp.toml");
    std::fs::write(
        &exp,
        format!("studies = [\"mrc\"]\n[frames]\nscenes = [{scene:?}]\nresolutions = [\"160x90\", \"320x180\"]\n"),
    )
    .unwrap();
    exp
}

/// Asserts that changing `file`'s modification time keeps `exp`'s keys
/// and that `edit` changes them all (frame and jobs); returns the keys
/// after the edit.
fn keyed_by(exp: &Path, file: &Path, edit: impl FnOnce()) {
    let before = keys(exp);
    touch(file);
    assert_eq!(keys(exp), before, "a touch of {}", file.display());
    std::fs::write(file, std::fs::read(file).unwrap()).unwrap();
    assert_eq!(keys(exp), before, "{} rewritten as it was", file.display());
    edit();
    let after = keys(exp);
    assert_ne!(after.0, before.0, "an edit of {}", file.display());
    for (a, b) in after.1.iter().zip(&before.1) {
        assert_ne!(a, b, "a job's key after an edit of {}", file.display());
    }
}

#[test]
fn an_obj_scene_is_keyed_by_its_mtl_and_texture_too() {
    let root = tempfile::tempdir().unwrap();
    let d = root.path();
    std::fs::write(
        d.join("scene.obj"),
        "mtllib scene.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nusemtl a\nf 1/1 2/2 3/3\n",
    )
    .unwrap();
    std::fs::write(d.join("scene.mtl"), "newmtl a\nKd 1 1 1\nmap_Kd tex.tga\n").unwrap();
    std::fs::write(d.join("tex.tga"), tga(200)).unwrap();
    let exp = sweep_of(d, "scene.obj");
    let e = Experiment::read(&exp).unwrap();
    // Each frame (two resolutions) lists the three files, the scene file
    // first, each hashed once.
    assert_eq!(e.frames.len(), 2);
    for f in &e.frames {
        let paths: Vec<&str> = f.inputs.iter().map(|i| i.path.as_str()).collect();
        let want = ["scene.obj", "scene.mtl", "tex.tga"].map(|n| d.join(n).display().to_string());
        assert_eq!(paths, want);
        assert!(
            f.inputs.iter().all(|i| i.sha256.len() == 64),
            "{:?}",
            f.inputs
        );
    }
    assert_eq!(e.inputs.len(), 3);

    let tex = d.join("tex.tga");
    keyed_by(&exp, &tex, || std::fs::write(&tex, tga(100)).unwrap());
    let mtl = d.join("scene.mtl");
    keyed_by(&exp, &mtl, || {
        std::fs::write(&mtl, "newmtl a\nKd 1 0 0\nmap_Kd tex.tga\n").unwrap()
    });

    // A missing texture is an input too (the scene renders a
    // checkerboard): adding it changes the keys.
    std::fs::write(&mtl, "newmtl a\nmap_Kd later.tga\n").unwrap();
    let e = Experiment::read(&exp).unwrap();
    let later = &e.frames[0].inputs[2];
    assert_eq!(later.path, d.join("later.tga").display().to_string());
    assert_eq!(later.sha256, gfxcache_sweep::exp::MISSING);
    let before = keys(&exp);
    std::fs::write(d.join("later.tga"), tga(7)).unwrap();
    assert_ne!(keys(&exp).0, before.0);
}

/// A glTF triangle whose positions are in the external buffer `bin`.
fn gltf_triangle(bin: &str) -> String {
    format!(
        r#"{{"asset": {{"version": "2.0"}}, "scenes": [{{"nodes": [0]}}], "nodes": [{{"mesh": 0}}],
  "meshes": [{{"primitives": [{{"attributes": {{"POSITION": 0}}}}]}}],
  "buffers": [{{"byteLength": 36, "uri": "{bin}"}}],
  "bufferViews": [{{"buffer": 0, "byteLength": 36}}],
  "accessors": [{{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
    "min": [0, 0, 0], "max": [1, 1, 0]}}]}}"#
    )
}

fn positions(far: f32) -> Vec<u8> {
    [0.0f32, 0.0, 0.0, far, 0.0, 0.0, 0.0, far, 0.0]
        .iter()
        .flat_map(|c| c.to_le_bytes())
        .collect()
}

#[test]
fn a_gltf_scene_is_keyed_by_its_buffer_too() {
    let root = tempfile::tempdir().unwrap();
    let d = root.path();
    std::fs::write(d.join("tri.gltf"), gltf_triangle("tri.bin")).unwrap();
    let bin = d.join("tri.bin");
    std::fs::write(&bin, positions(1.0)).unwrap();
    let exp = sweep_of(d, "tri.gltf");
    let e = Experiment::read(&exp).unwrap();
    let paths: Vec<&str> = e.frames[0].inputs.iter().map(|i| i.path.as_str()).collect();
    assert_eq!(
        paths,
        ["tri.gltf", "tri.bin"].map(|n| d.join(n).display().to_string())
    );
    keyed_by(&exp, &bin, || std::fs::write(&bin, positions(2.0)).unwrap());

    // A buffer that is gone: the scene does not load, and the sweep says
    // so when it is read, naming the sweep file, the scene and the buffer.
    std::fs::remove_file(&bin).unwrap();
    let err = Experiment::read(&exp).unwrap_err().to_string();
    assert!(
        err.contains("exp.toml") && err.contains("tri.gltf") && err.contains("tri.bin"),
        "{err}"
    );
}

#[test]
fn a_toml_scene_is_keyed_by_its_models_textures() {
    let root = tempfile::tempdir().unwrap();
    let d = root.path();
    std::fs::create_dir(d.join("models")).unwrap();
    std::fs::write(
        d.join("models/m.obj"),
        "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl a\nf 1 2 3\n",
    )
    .unwrap();
    std::fs::write(d.join("models/m.mtl"), "newmtl a\nmap_Kd m.tga\n").unwrap();
    let tex = d.join("models/m.tga");
    std::fs::write(&tex, tga(1)).unwrap();
    std::fs::write(
        d.join("s.toml"),
        "[[model]]\npath = \"models/m.obj\"\n[[model]]\npath = \"models/m.obj\"\nposition = [2, 0, 0]\n",
    )
    .unwrap();
    let exp = sweep_of(d, "s.toml");
    let e = Experiment::read(&exp).unwrap();
    let paths: Vec<&str> = e.frames[0].inputs.iter().map(|i| i.path.as_str()).collect();
    assert_eq!(
        paths,
        ["s.toml", "models/m.obj", "models/m.mtl", "models/m.tga"]
            .map(|n| d.join(n).display().to_string())
    );
    keyed_by(&exp, &tex, || std::fs::write(&tex, tga(2)).unwrap());
}

#[test]
fn a_scene_that_does_not_load_is_refused_when_the_sweep_is_read() {
    let root = tempfile::tempdir().unwrap();
    let exp = sweep_with_scene_file(root.path());
    std::fs::write(root.path().join("scene.obj"), "v 0 0 0\nf 1 1 7\n").unwrap();
    let err = Experiment::read(&exp).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("exp.toml: scene ") && msg.contains("scene.obj:2") && msg.contains("index 7"),
        "{msg}"
    );
    assert!(matches!(err, SweepError::Input { .. }), "{err:?}");
}

#[test]
fn built_in_scenes_have_no_inputs_and_keep_their_keys() {
    let e = parse(EXAMPLE).unwrap();
    let mut read = e.clone();
    read.hash_inputs(Path::new("exp.toml")).unwrap();
    assert!(read.frames.iter().all(|f| f.inputs.is_empty()));
    assert_eq!(
        read.jobs().iter().map(|j| j.key()).collect::<Vec<_>>(),
        e.jobs().iter().map(|j| j.key()).collect::<Vec<_>>()
    );
}
