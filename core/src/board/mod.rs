//! The board layer: adjacency, Line of Sight and movement over the data layer's map.

pub mod los;
pub mod movement;
