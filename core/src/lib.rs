/*!
Pure rules of the *Chronicle X* Mission game: the map, Line of Sight, movement, Blip Tokens,
rounds, combat and the Alien Behaviour hook.

`core` knows nothing of Lua, terminals or files: behaviours reach it through a trait, and every
decision a player makes is asked of a controller passed in.
*/

pub mod geom;
pub mod los;
pub mod map;

pub use geom::{Dir, Pos};
pub use los::{LineOfSight, LosRule};
pub use map::{BuildingId, Edge, Map, MapBuilder, Obstacles, Terrain};
