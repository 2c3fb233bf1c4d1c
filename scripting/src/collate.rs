//! String order for Lua's `<` and `<=`: byte order, charged to the running call's budget.
//!
//! Lua compares two strings (`l_strcmp`) by calling the C library's `strcoll` on each piece
//! between NUL bytes, inside one VM instruction the count hook cannot see into: two 64 KiB
//! strings of NUL bytes cost 64K calls, milliseconds per comparison. This module defines
//! `strcoll` for the process, so Lua's calls come here:
//!
//! - the order is byte order (what `strcoll` gives in the C locale Rust programs run in), so it
//!   no longer depends on a locale anything might set;
//! - every call is charged (one instruction, plus one per 64 bytes it scans) to the budget of
//!   the call running on this thread, taken at its next hook tick or host call;
//! - once those charges exceed what is left of the budget, comparisons answer at once (the
//!   call is over: the hook raises the spent budget within [`HOOK_INTERVAL`] instructions, and
//!   every host function, which is all a script could act through, raises it at once), so no
//!   comparison can run on after the budget.
//!
//! Nothing else in the process calls `strcoll` (Rust's string comparisons do not), and any
//! other caller gets C-locale order, as before.
//!
//! [`HOOK_INTERVAL`]: crate::HOOK_INTERVAL

use std::cell::Cell;
use std::ffi::{c_char, c_int};

thread_local! {
    /// Units charged by comparisons since the budget last took them.
    static PENDING: Cell<u64> = const { Cell::new(0) };
    /// Units the running call may still spend (set whenever the budget is consumed); `u64::MAX`
    /// outside a call.
    static ALLOWANCE: Cell<u64> = const { Cell::new(u64::MAX) };
}

/// Bytes a comparison scans per charged instruction.
pub(crate) const BYTES_PER_UNIT: usize = 64;

/// The units comparisons charged since the last call, and resets the count.
pub(crate) fn take_pending() -> u64 {
    PENDING.with(|p| p.replace(0))
}

/// What the running call may still spend; comparisons beyond it answer at once.
pub(crate) fn set_allowance(units: u64) {
    ALLOWANCE.with(|a| a.set(units));
}

extern "C" {
    fn strlen(s: *const c_char) -> usize;
    fn strcmp(a: *const c_char, b: *const c_char) -> c_int;
}

/// `strcoll` with byte order, charged (see the module docs).
///
/// # Safety
/// `a` and `b` must be NUL-terminated strings, as for the C function.
#[no_mangle]
pub unsafe extern "C" fn strcoll(a: *const c_char, b: *const c_char) -> c_int {
    let over = PENDING.with(|p| {
        let pending = p.get();
        let over = pending > ALLOWANCE.with(Cell::get);
        if !over {
            // SAFETY: the caller passes NUL-terminated strings.
            let scanned = unsafe { strlen(a).min(strlen(b)) };
            let units = 1 + u64::try_from(scanned / BYTES_PER_UNIT).unwrap_or(u64::MAX);
            p.set(pending.saturating_add(units));
        }
        over
    });
    if over {
        // The budget is spent; the call ends before anything can observe this answer.
        return 1;
    }
    // SAFETY: as above; `strcmp` compares as unsigned bytes, the C locale's collation.
    unsafe { strcmp(a, b) }
}

/// Makes sure the linker keeps this module's `strcoll` (Lua's reference to it must resolve
/// here, not to the C library's).
pub(crate) fn linked() -> usize {
    strcoll as unsafe extern "C" fn(*const c_char, *const c_char) -> c_int as usize
}
