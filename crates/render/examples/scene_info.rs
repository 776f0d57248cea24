//! Loads scenes (files or built-in names) and prints what they hold:
//! meshes, instances (draws per pass), triangles per view, materials,
//! images with their formats, the frame preset, the camera and any loader
//! warnings.
//!
//! ```sh
//! cargo run --release -p gfxcache-render --example scene_info -- model.obj scene.toml corridor
//! ```

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut failed = false;
    for arg in std::env::args().skip(1) {
        match gfxcache_render::scene::resolve(&arg) {
            Ok(s) => {
                let formats: Vec<String> = s
                    .images
                    .iter()
                    .map(|i| format!("{}x{} {:?}", i.width, i.height, i.format))
                    .collect();
                println!(
                    "{arg}: '{}' ({}) {} meshes, {} instances, {} triangles, {} materials, images [{}], camera eye {:?}",
                    s.name,
                    s.preset,
                    s.meshes.len(),
                    s.instances.len(),
                    s.triangle_count(),
                    s.materials.len(),
                    formats.join(", "),
                    s.camera.keys[0].eye
                );
                for w in &s.warnings {
                    println!("  warning: {w}");
                }
            }
            Err(e) => {
                println!("{arg}: ERROR {e}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
