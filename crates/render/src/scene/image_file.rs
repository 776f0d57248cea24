//! Texture image files: PNG, JPEG and TGA through the `image` crate, DDS
//! ([`super::dds`]) and SGI ([`super::sgi`]) through our own readers, and
//! the checkerboard that stands in for a texture that cannot be read.
//!
//! The format is recognised by its magic bytes where it has one (PNG, JPEG,
//! DDS, SGI) and by the extension otherwise (TGA has no magic), so an
//! embedded glTF image or a misnamed file still decodes.

use std::collections::BTreeMap;
use std::io::Cursor;
use std::path::{Path, PathBuf};

use super::{dds, sgi, Image, Scene, SceneError};
use crate::texture::TexFormat;

/// Largest side accepted, in texels (real textures are far smaller; the
/// limit keeps a corrupt header from asking for gigabytes).
pub const MAX_DIM: u32 = 16384;
/// Largest texel count accepted (8192 x 8192).
pub const MAX_TEXELS: u64 = 1 << 26;

/// Side of the fallback checkerboard, in texels: 8 x 8 squares of 8 x 8
/// texels each.
pub const CHECKER_SIZE: u32 = 64;

/// Rejects dimensions that are zero or beyond the limits above.
pub(crate) fn check_dims(width: u32, height: u32, path: &Path) -> Result<(), SceneError> {
    if width == 0 || height == 0 {
        return Err(SceneError::file(
            path,
            format!("image is {width}x{height}: expected a non-empty image"),
        ));
    }
    if width > MAX_DIM || height > MAX_DIM || u64::from(width) * u64::from(height) > MAX_TEXELS {
        return Err(SceneError::file(
            path,
            format!("image is {width}x{height}: larger than the {MAX_DIM} per side / {MAX_TEXELS} texels accepted"),
        ));
    }
    Ok(())
}

/// Reads and decodes a texture file.
pub fn read_image(path: &Path) -> Result<Image, SceneError> {
    let bytes = super::geometry::read_file(path)?;
    decode_image(&bytes, path)
}

/// [`read_image`] for a loader: the file recorded in `sources` first
/// (see [`Scene::sources`]), whether or not it can be read.
pub(crate) fn read_source_image(
    path: &Path,
    sources: &mut Vec<PathBuf>,
) -> Result<Image, SceneError> {
    let bytes = super::geometry::read_source(path, sources)?;
    decode_image(&bytes, path)
}

/// Decodes a texture from memory; `path` names it in errors and, for TGA,
/// gives the extension.
pub fn decode_image(bytes: &[u8], path: &Path) -> Result<Image, SceneError> {
    let name = path
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if bytes.starts_with(b"DDS ") {
        return dds::decode(bytes, path, name);
    }
    if bytes.starts_with(&sgi::MAGIC.to_be_bytes()) {
        return sgi::decode(bytes, path, name);
    }
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
        .unwrap_or_default();
    let format = if bytes.starts_with(b"\x89PNG") {
        image::ImageFormat::Png
    } else if bytes.starts_with(&[0xFF, 0xD8]) {
        image::ImageFormat::Jpeg
    } else if ext == "tga" {
        image::ImageFormat::Tga
    } else {
        return Err(SceneError::file(
            path,
            "unrecognised image: expected PNG, JPEG, TGA, DDS or SGI (.rgb/.rgba/.sgi)",
        ));
    };
    let mut reader = image::ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_DIM);
    limits.max_image_height = Some(MAX_DIM);
    limits.max_alloc = Some(MAX_TEXELS * 4);
    reader.limits(limits);
    let decoded = reader
        .decode()
        .map_err(|e| SceneError::file(path, format!("cannot decode {format:?} image: {e}")))?;
    let rgba = decoded.to_rgba8();
    let (width, height) = rgba.dimensions();
    check_dims(width, height, path)?;
    let texels = rgba.pixels().map(|p| p.0).collect();
    Ok(Image {
        name,
        width,
        height,
        format: TexFormat::Rgba8,
        texels,
    })
}

/// The stand-in for a texture that cannot be read: [`CHECKER_SIZE`]
/// square, 8 x 8 squares of magenta and dark grey (loud on purpose, so a
/// missing texture is seen in the picture as well as in the warnings).
pub fn checkerboard(name: &str) -> Image {
    let mut texels = Vec::with_capacity((CHECKER_SIZE * CHECKER_SIZE) as usize);
    for y in 0..CHECKER_SIZE {
        for x in 0..CHECKER_SIZE {
            let on = ((x / 8) + (y / 8)) % 2 == 0;
            texels.push(if on {
                [255, 0, 255, 255]
            } else {
                [40, 40, 40, 255]
            });
        }
    }
    Image {
        name: name.to_string(),
        width: CHECKER_SIZE,
        height: CHECKER_SIZE,
        format: TexFormat::Rgba8,
        texels,
    }
}

/// Texture files a loader has read, by path, so a texture several
/// materials share is decoded and stored once.
#[derive(Default)]
pub(crate) struct TextureCache {
    by_path: BTreeMap<PathBuf, usize>,
}

impl TextureCache {
    /// The index in `scene.images` of the texture at `path`, reading it on
    /// first use (and recording it in [`Scene::sources`]). A file that
    /// cannot be read becomes a checkerboard and a warning (`referrer`
    /// says which file asked for it).
    pub(crate) fn get(&mut self, scene: &mut Scene, path: &Path, referrer: &Path) -> usize {
        if let Some(&i) = self.by_path.get(path) {
            return i;
        }
        let image = match read_source_image(path, &mut scene.sources) {
            Ok(img) => img,
            Err(e) => {
                scene.warnings.push(format!(
                    "{}: texture {}: {e}; using a checkerboard",
                    referrer.display(),
                    path.display()
                ));
                let name = path
                    .file_name()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                checkerboard(&name)
            }
        };
        scene.images.push(image);
        let i = scene.images.len() - 1;
        self.by_path.insert(path.to_path_buf(), i);
        i
    }
}

/// `name` (as written in a model file, possibly with `\` separators)
/// relative to the directory of `base`.
pub(crate) fn relative_to(base: &Path, name: &str) -> PathBuf {
    let name = name.trim().replace('\\', "/");
    match base.parent() {
        Some(dir) => dir.join(name),
        None => PathBuf::from(name),
    }
}

/// How many directories above a model file [`find_texture`] looks for
/// shared texture directories (TORCS's tracks are three below its root).
const TEXTURE_DIR_LEVELS: usize = 3;

/// Where the texture `name` that the model or material file `ac` names is:
/// relative to that file,
/// else (as simulators lay out their data) in a shared texture directory
/// beside the file or up to [`TEXTURE_DIR_LEVELS`] directories above it:
/// `textures` (CRRCsim: `objects/` beside `textures/`) or `data/textures`
/// (TORCS: `tracks/road/<track>/` below the root holding it). A path that
/// does not exist (often an absolute Windows path from the modeller) is
/// also tried by its file name alone in those places. The first candidate
/// when none exists (the caller warns about it).
pub(crate) fn find_texture(ac: &Path, name: &str) -> PathBuf {
    let primary = relative_to(ac, name);
    if primary.is_file() {
        return primary;
    }
    let norm = name.trim().replace('\\', "/");
    let file = norm.rsplit('/').next().unwrap_or(&norm);
    let dir = ac.parent().unwrap_or(Path::new(""));
    let beside = dir.join(file);
    if beside.is_file() {
        return beside;
    }
    let mut above = dir.to_path_buf();
    for _ in 0..=TEXTURE_DIR_LEVELS {
        for shared in ["textures", "data/textures"] {
            for cand in [
                above.join(shared).join(&norm),
                above.join(shared).join(file),
            ] {
                if cand.is_file() {
                    return cand;
                }
            }
        }
        above.push("..");
    }
    primary
}
