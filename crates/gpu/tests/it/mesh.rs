//! The mesh by hand: shapes, hops, X-Y routes, latency, link contention
//! and the broadcast tree.

use std::collections::HashSet;

use gfxcache_gpu::{default_shape, Contention, Mesh, MeshConfig, Message};

fn mesh(fps: usize, contention: Contention) -> Mesh {
    let config = MeshConfig {
        contention,
        ..MeshConfig::default()
    };
    Mesh::new(&config, fps, 64)
}

#[test]
fn default_shapes_are_the_specs() {
    assert_eq!(default_shape(4), (2, 2));
    assert_eq!(default_shape(8), (4, 2));
    assert_eq!(default_shape(16), (4, 4));
    assert_eq!(default_shape(32), (8, 4));
    assert_eq!(default_shape(1), (1, 1));
    assert_eq!(default_shape(2), (2, 1));
    assert_eq!(default_shape(5), (3, 2));
    let m = mesh(32, Contention::Off);
    assert_eq!(m.shape(), (8, 4));
    assert_eq!(m.position(0), (0, 0));
    assert_eq!(m.position(13), (5, 1));
    assert_eq!(m.position(31), (7, 3));
    // The centre router: ((8-1)/2, (4-1)/2) = (3, 1), node 11.
    assert_eq!(m.centre(), 11);
    assert_eq!(mesh(8, Contention::Off).centre(), 1);
    assert_eq!(mesh(4, Contention::Off).centre(), 0);
    assert_eq!(mesh(16, Contention::Off).centre(), 5);
    // 128-bit flits: a control message is 1 flit, a 64-byte block 1 + 4.
    assert_eq!(m.flits(Message::Control), 1);
    assert_eq!(m.flits(Message::Data), 5);
}

#[test]
fn hops_on_the_8x4_mesh_by_hand() {
    let m = mesh(32, Contention::Off);
    // Corner to corner: 7 columns and 3 rows.
    assert_eq!(m.hops(0, 31), 10);
    assert_eq!(m.hops(7, 24), 10);
    assert_eq!(m.hops(31, 0), 10);
    // To the centre (3, 1).
    assert_eq!(m.hops(0, 11), 4);
    assert_eq!(m.hops(31, 11), 6);
    assert_eq!(m.hops(7, 11), 5);
    assert_eq!(m.hops(11, 11), 0);
    assert_eq!(m.hops(12, 11), 1);
}

#[test]
fn routes_go_along_x_then_y() {
    let m = mesh(32, Contention::Off);
    assert_eq!(m.route(0, 31), [0, 1, 2, 3, 4, 5, 6, 7, 15, 23, 31]);
    // (2, 3) to (5, 0): east first, then south.
    assert_eq!(m.route(26, 5), [26, 27, 28, 29, 21, 13, 5]);
    // (6, 0) to (1, 2): west first, then north.
    assert_eq!(m.route(6, 17), [6, 5, 4, 3, 2, 1, 9, 17]);
    assert_eq!(m.route(9, 9), [9]);
    for (a, b) in [(0, 31), (26, 5), (6, 17), (11, 0)] {
        assert_eq!(m.route(a, b).len() as u32 - 1, m.hops(a, b));
    }
}

#[test]
fn latency_is_hops_and_serialization() {
    let mut m = mesh(32, Contention::Off);
    assert_eq!(m.send(0, 31, Message::Control, 100), 110);
    assert_eq!(m.send(0, 31, Message::Data, 100), 114);
    assert_eq!(m.send(4, 4, Message::Data, 100), 100);
    let s = m.stats();
    assert_eq!((s.control_messages, s.data_messages), (1, 1));
    assert_eq!(s.flit_hops, 10 + 50);
    assert_eq!(s.contention_cycles, 0);
}

#[test]
fn two_data_messages_on_one_link_serialize() {
    // Each 5-flit message holds the link 0 -> 1 for 5 cycles.
    let mut m = mesh(32, Contention::Data);
    assert_eq!(m.send(0, 1, Message::Data, 0), 5);
    assert_eq!(m.send(0, 1, Message::Data, 0), 10);
    // Through the busy link and on: waits 10 cycles at router 0, then
    // crosses 1 -> 2 a cycle later.
    assert_eq!(m.send(0, 2, Message::Data, 0), 10 + 2 + 4);
    // The opposite direction is another link.
    assert_eq!(m.send(1, 0, Message::Data, 0), 5);
    // Control messages do not reserve under `data`.
    assert_eq!(m.send(0, 1, Message::Control, 0), 1);
    assert_eq!(m.stats().contention_cycles, 5 + 10);

    let mut off = mesh(32, Contention::Off);
    for _ in 0..3 {
        assert_eq!(off.send(0, 1, Message::Data, 0), 5);
    }
    assert_eq!(off.stats().contention_cycles, 0);

    let mut all = mesh(32, Contention::All);
    assert_eq!(all.send(0, 1, Message::Data, 0), 5);
    assert_eq!(all.send(0, 1, Message::Control, 0), 6);
    // A message in an earlier free slot does not wait for later ones,
    // whatever order they are sent in.
    let mut late_first = mesh(32, Contention::Data);
    assert_eq!(late_first.send(0, 1, Message::Data, 100), 105);
    assert_eq!(late_first.send(0, 1, Message::Data, 0), 5);
}

#[test]
fn the_broadcast_tree_reaches_every_node_once_over_p_minus_one_links() {
    for fps in [4, 8, 16, 32] {
        let m = mesh(fps, Contention::Off);
        for from in 0..fps {
            let edges = m.broadcast_tree(from);
            assert_eq!(edges.len(), fps - 1, "P = {fps}, from {from}");
            let mut reached = HashSet::from([from]);
            for &(a, b) in &edges {
                assert!(reached.contains(&a), "P = {fps}: parent {a} before child");
                assert!(reached.insert(b), "P = {fps}: {b} reached twice");
                assert_eq!(m.hops(a, b), 1);
            }
            assert_eq!(reached.len(), fps);
        }
    }
    // A mesh with an empty router (5 nodes on 3x2) still reaches them all.
    let m = mesh(5, Contention::Off);
    for from in 0..5 {
        let reached: HashSet<usize> = m.broadcast_tree(from).iter().map(|e| e.1).collect();
        assert!((0..5).all(|n| n == from || reached.contains(&n)));
    }
}

#[test]
fn broadcast_packets_and_their_flit_hops() {
    let mut m = mesh(32, Contention::Off);
    // 16 header bits and 9 per bucket (5-bit id, 4-bit count), 128-bit flits.
    assert_eq!(m.broadcast_flits(0, 9), 1);
    assert_eq!(m.broadcast_flits(12, 9), 1);
    assert_eq!(m.broadcast_flits(13, 9), 2);
    assert_eq!(m.broadcast_flits(32, 9), 3);
    // From the corner: the farthest node is 10 hops away, so the last tail
    // arrives 10 + 3 - 1 cycles later.
    assert_eq!(m.broadcast(0, 3, 50), 50 + 10 + 2);
    let s = m.stats();
    assert_eq!((s.broadcast_packets, s.broadcast_flits), (1, 3));
    assert_eq!(s.flit_hops, 3 * 31);
}
