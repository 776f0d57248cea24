//! Small `f32` linear algebra: vectors, a 4x4 matrix, projections.
//!
//! Written out by hand rather than taken from a math crate so the crate stays
//! light and every operation is a plain `f32` multiply or add in a fixed
//! order: Rust never contracts `a * b + c` into a fused multiply-add on its
//! own, so results are bit-identical from run to run on one platform, which
//! the byte-identical traces rely on.
//!
//! Conventions (those of Direct3D and Vulkan, right-handed view space):
//! the camera looks down -Z; clip space has `0 <= z <= w` inside the
//! frustum, so depth `z / w` runs from 0 at the near plane to 1 at the far
//! plane; matrices are column-major and multiply column vectors (`m * v`).

use std::ops::{Add, Div, Index, Mul, Neg, Sub};

/// A 2D vector.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec2 {
    pub x: f32,
    pub y: f32,
}

/// A 3D vector.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec3 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
}

/// A 4D (homogeneous) vector.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec4 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
    pub w: f32,
}

impl Vec2 {
    pub const fn new(x: f32, y: f32) -> Vec2 {
        Vec2 { x, y }
    }
    pub fn dot(self, o: Vec2) -> f32 {
        self.x * o.x + self.y * o.y
    }
    pub fn length(self) -> f32 {
        self.dot(self).sqrt()
    }
}

impl Vec3 {
    pub const fn new(x: f32, y: f32, z: f32) -> Vec3 {
        Vec3 { x, y, z }
    }
    pub fn dot(self, o: Vec3) -> f32 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }
    pub fn cross(self, o: Vec3) -> Vec3 {
        Vec3::new(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }
    pub fn length(self) -> f32 {
        self.dot(self).sqrt()
    }
    /// The unit vector along `self`; a zero vector stays zero.
    pub fn normalize(self) -> Vec3 {
        let l = self.length();
        if l > 0.0 {
            self / l
        } else {
            self
        }
    }
    /// `(x, y, z, w)`.
    pub const fn extend(self, w: f32) -> Vec4 {
        Vec4::new(self.x, self.y, self.z, w)
    }
}

impl Vec4 {
    pub const fn new(x: f32, y: f32, z: f32, w: f32) -> Vec4 {
        Vec4 { x, y, z, w }
    }
    pub fn dot(self, o: Vec4) -> f32 {
        self.x * o.x + self.y * o.y + self.z * o.z + self.w * o.w
    }
    /// `(x, y, z)`, dropping `w`.
    pub const fn truncate(self) -> Vec3 {
        Vec3::new(self.x, self.y, self.z)
    }
    /// `self + (o - self) * t`.
    pub fn lerp(self, o: Vec4, t: f32) -> Vec4 {
        self + (o - self) * t
    }
}

macro_rules! vec_ops {
    ($t:ident { $($f:ident),+ }) => {
        impl Add for $t {
            type Output = $t;
            fn add(self, o: $t) -> $t { $t { $($f: self.$f + o.$f),+ } }
        }
        impl Sub for $t {
            type Output = $t;
            fn sub(self, o: $t) -> $t { $t { $($f: self.$f - o.$f),+ } }
        }
        impl Mul<f32> for $t {
            type Output = $t;
            fn mul(self, s: f32) -> $t { $t { $($f: self.$f * s),+ } }
        }
        impl Div<f32> for $t {
            type Output = $t;
            fn div(self, s: f32) -> $t { $t { $($f: self.$f / s),+ } }
        }
        impl Neg for $t {
            type Output = $t;
            fn neg(self) -> $t { $t { $($f: -self.$f),+ } }
        }
    };
}
vec_ops!(Vec2 { x, y });
vec_ops!(Vec3 { x, y, z });
vec_ops!(Vec4 { x, y, z, w });

impl Index<usize> for Vec4 {
    type Output = f32;
    fn index(&self, i: usize) -> &f32 {
        match i {
            0 => &self.x,
            1 => &self.y,
            2 => &self.z,
            3 => &self.w,
            _ => panic!("Vec4 index {i} out of range"),
        }
    }
}

/// A 4x4 matrix, column-major: `cols[c]` is column `c`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mat4 {
    pub cols: [Vec4; 4],
}

impl Default for Mat4 {
    fn default() -> Mat4 {
        Mat4::IDENTITY
    }
}

impl Mat4 {
    pub const IDENTITY: Mat4 = Mat4 {
        cols: [
            Vec4::new(1.0, 0.0, 0.0, 0.0),
            Vec4::new(0.0, 1.0, 0.0, 0.0),
            Vec4::new(0.0, 0.0, 1.0, 0.0),
            Vec4::new(0.0, 0.0, 0.0, 1.0),
        ],
    };

    pub const fn from_cols(c0: Vec4, c1: Vec4, c2: Vec4, c3: Vec4) -> Mat4 {
        Mat4 {
            cols: [c0, c1, c2, c3],
        }
    }

    /// Row `r` as a vector.
    pub fn row(&self, r: usize) -> Vec4 {
        Vec4::new(
            self.cols[0][r],
            self.cols[1][r],
            self.cols[2][r],
            self.cols[3][r],
        )
    }

    pub fn transpose(&self) -> Mat4 {
        Mat4::from_cols(self.row(0), self.row(1), self.row(2), self.row(3))
    }

    pub fn translation(t: Vec3) -> Mat4 {
        let mut m = Mat4::IDENTITY;
        m.cols[3] = t.extend(1.0);
        m
    }

    pub fn scale(s: Vec3) -> Mat4 {
        Mat4::from_cols(
            Vec4::new(s.x, 0.0, 0.0, 0.0),
            Vec4::new(0.0, s.y, 0.0, 0.0),
            Vec4::new(0.0, 0.0, s.z, 0.0),
            Vec4::new(0.0, 0.0, 0.0, 1.0),
        )
    }

    /// Rotation by `angle` radians about +X (counter-clockwise looking down -X).
    pub fn rotation_x(angle: f32) -> Mat4 {
        let (s, c) = angle.sin_cos();
        Mat4::from_cols(
            Vec4::new(1.0, 0.0, 0.0, 0.0),
            Vec4::new(0.0, c, s, 0.0),
            Vec4::new(0.0, -s, c, 0.0),
            Vec4::new(0.0, 0.0, 0.0, 1.0),
        )
    }

    /// Rotation by `angle` radians about +Y.
    pub fn rotation_y(angle: f32) -> Mat4 {
        let (s, c) = angle.sin_cos();
        Mat4::from_cols(
            Vec4::new(c, 0.0, -s, 0.0),
            Vec4::new(0.0, 1.0, 0.0, 0.0),
            Vec4::new(s, 0.0, c, 0.0),
            Vec4::new(0.0, 0.0, 0.0, 1.0),
        )
    }

    /// Rotation by `angle` radians about +Z.
    pub fn rotation_z(angle: f32) -> Mat4 {
        let (s, c) = angle.sin_cos();
        Mat4::from_cols(
            Vec4::new(c, s, 0.0, 0.0),
            Vec4::new(-s, c, 0.0, 0.0),
            Vec4::new(0.0, 0.0, 1.0, 0.0),
            Vec4::new(0.0, 0.0, 0.0, 1.0),
        )
    }

    /// Right-handed perspective projection with depth in `[0, 1]`:
    /// `fov_y` in radians, `aspect` = width / height, `0 < near < far`.
    pub fn perspective(fov_y: f32, aspect: f32, near: f32, far: f32) -> Mat4 {
        let f = 1.0 / (0.5 * fov_y).tan();
        let r = far / (near - far);
        Mat4::from_cols(
            Vec4::new(f / aspect, 0.0, 0.0, 0.0),
            Vec4::new(0.0, f, 0.0, 0.0),
            Vec4::new(0.0, 0.0, r, -1.0),
            Vec4::new(0.0, 0.0, r * near, 0.0),
        )
    }

    /// Right-handed orthographic projection with depth in `[0, 1]` (shadow
    /// maps, post-processing, tests).
    pub fn orthographic(left: f32, right: f32, bottom: f32, top: f32, near: f32, far: f32) -> Mat4 {
        let rl = 1.0 / (right - left);
        let tb = 1.0 / (top - bottom);
        let nf = 1.0 / (near - far);
        Mat4::from_cols(
            Vec4::new(2.0 * rl, 0.0, 0.0, 0.0),
            Vec4::new(0.0, 2.0 * tb, 0.0, 0.0),
            Vec4::new(0.0, 0.0, nf, 0.0),
            Vec4::new(-(right + left) * rl, -(top + bottom) * tb, near * nf, 1.0),
        )
    }

    /// Right-handed view matrix: the camera at `eye` looks at `target`, `up`
    /// roughly up.
    pub fn look_at(eye: Vec3, target: Vec3, up: Vec3) -> Mat4 {
        let f = (target - eye).normalize();
        let s = f.cross(up).normalize();
        let u = s.cross(f);
        Mat4::from_cols(
            Vec4::new(s.x, u.x, -f.x, 0.0),
            Vec4::new(s.y, u.y, -f.y, 0.0),
            Vec4::new(s.z, u.z, -f.z, 0.0),
            Vec4::new(-s.dot(eye), -u.dot(eye), f.dot(eye), 1.0),
        )
    }

    /// `self * v`.
    pub fn transform(&self, v: Vec4) -> Vec4 {
        self.cols[0] * v.x + self.cols[1] * v.y + self.cols[2] * v.z + self.cols[3] * v.w
    }

    /// `self * (p, 1)`: a point.
    pub fn transform_point(&self, p: Vec3) -> Vec4 {
        self.transform(p.extend(1.0))
    }

    /// `self * (d, 0)`, dropping `w`: a direction.
    pub fn transform_vector(&self, d: Vec3) -> Vec3 {
        self.transform(d.extend(0.0)).truncate()
    }
}

impl Mul for Mat4 {
    type Output = Mat4;
    fn mul(self, o: Mat4) -> Mat4 {
        Mat4::from_cols(
            self.transform(o.cols[0]),
            self.transform(o.cols[1]),
            self.transform(o.cols[2]),
            self.transform(o.cols[3]),
        )
    }
}

impl Mul<Vec4> for Mat4 {
    type Output = Vec4;
    fn mul(self, v: Vec4) -> Vec4 {
        self.transform(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Vec4, b: Vec4) -> bool {
        (a - b).dot(a - b) < 1e-10
    }

    #[test]
    fn perspective_maps_near_to_0_and_far_to_1() {
        let p = Mat4::perspective(1.0, 1.5, 0.5, 100.0);
        let n = p.transform_point(Vec3::new(0.0, 0.0, -0.5));
        let f = p.transform_point(Vec3::new(0.0, 0.0, -100.0));
        assert!((n.z / n.w).abs() < 1e-6);
        assert!((f.z / f.w - 1.0).abs() < 1e-6);
        assert!(n.w > 0.0 && f.w > 0.0);
    }

    #[test]
    fn orthographic_maps_box_to_clip_cube() {
        let o = Mat4::orthographic(-2.0, 6.0, -1.0, 3.0, 1.0, 11.0);
        let a = o.transform_point(Vec3::new(-2.0, -1.0, -1.0));
        let b = o.transform_point(Vec3::new(6.0, 3.0, -11.0));
        assert!(close(a, Vec4::new(-1.0, -1.0, 0.0, 1.0)));
        assert!(close(b, Vec4::new(1.0, 1.0, 1.0, 1.0)));
    }

    #[test]
    fn look_at_puts_target_on_minus_z() {
        let eye = Vec3::new(3.0, 2.0, 5.0);
        let v = Mat4::look_at(eye, Vec3::new(0.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0));
        let t = v.transform_point(Vec3::new(0.0, 0.0, 0.0));
        let d = eye.length();
        assert!(close(t, Vec4::new(0.0, 0.0, -d, 1.0)));
    }

    #[test]
    fn product_composes_and_rotation_is_orthonormal() {
        let r = Mat4::rotation_y(0.7) * Mat4::rotation_x(-0.3) * Mat4::rotation_z(1.1);
        let rt = r.transpose();
        let i = rt * r;
        for c in 0..4 {
            assert!(close(i.cols[c], Mat4::IDENTITY.cols[c]));
        }
        let t = Mat4::translation(Vec3::new(1.0, 2.0, 3.0)) * Mat4::scale(Vec3::new(2.0, 2.0, 2.0));
        let p = t.transform_point(Vec3::new(1.0, 1.0, 1.0));
        assert!(close(p, Vec4::new(3.0, 4.0, 5.0, 1.0)));
        let q = Mat4::rotation_z(std::f32::consts::FRAC_PI_2)
            .transform_vector(Vec3::new(1.0, 0.0, 0.0));
        assert!((q - Vec3::new(0.0, 1.0, 0.0)).length() < 1e-6);
    }
}
