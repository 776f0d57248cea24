//! `gfxcache reproduce`: a paper's run writes its suite's report (the
//! tables and figures `--suite` writes) and the book's page, whose every
//! figure it names is written beside it; started again it renders and
//! runs nothing.

use crate::common::gfxcache;

#[test]
fn a_papers_quick_run_writes_its_suite_and_book_page_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let book = dir.path().join("src/results");
    let args = [
        "reproduce",
        "--quick",
        "--paper",
        "tcor",
        "--out",
        out.to_str().unwrap(),
        "--book",
        book.to_str().unwrap(),
        "--json",
    ];
    let first = gfxcache(&args);
    let stderr = String::from_utf8_lossy(&first.stderr);
    assert!(first.status.success(), "{stderr}");
    let done: serde_json::Value = serde_json::from_slice(&first.stdout).unwrap();
    assert_eq!(done[0]["paper"], "tcor");
    assert_eq!(done[0]["suite"], "mobile");
    assert!(out.join("tcor/experiment.toml").is_file());
    assert!(out.join("tcor/suite/index.html").is_file());
    assert!(out.join("tcor/suite/match3/index.html").is_file());

    let md = std::fs::read_to_string(book.join("tcor.md")).unwrap();
    assert!(md.contains("reproduce --quick --paper tcor"), "{md}");
    assert!(md.contains("| --- |"), "a table: {md}");
    let images: Vec<&str> = md
        .split("](")
        .skip(1)
        .filter_map(|s| s.split(')').next())
        .collect();
    assert!(!images.is_empty(), "figures: {md}");
    for image in images {
        // As the chapter beside `results/` sees it.
        assert!(
            image.starts_with("results/tcor/"),
            "{image} is named from the book's chapters"
        );
        assert!(
            dir.path().join("src").join(image).is_file(),
            "{image} is written"
        );
    }

    // The suite made from the sweep's stored reports is the one `--suite`
    // makes: every table and figure the same.
    let direct = dir.path().join("direct");
    let run = gfxcache(&[
        "tcor",
        "--suite",
        "mobile",
        "--width",
        "392",
        "--height",
        "154",
        "--out",
        direct.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let mut compared = 0;
    for entry in std::fs::read_dir(&direct).unwrap() {
        let name = entry.unwrap().file_name();
        let name = name.to_str().unwrap();
        if name.ends_with(".csv") || name.ends_with(".svg") {
            let ours = std::fs::read(out.join("tcor/suite").join(name)).unwrap();
            assert!(
                ours == std::fs::read(direct.join(name)).unwrap(),
                "{name} differs"
            );
            compared += 1;
        }
    }
    assert!(compared > 3, "{compared} files compared");

    let again = gfxcache(&args);
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(again.status.success(), "{stderr}");
    assert!(
        !stderr.contains("rendering frame"),
        "nothing again: {stderr}"
    );
    assert_eq!(std::fs::read_to_string(book.join("tcor.md")).unwrap(), md);
}
