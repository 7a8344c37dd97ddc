//! Which instance types' capacity or accounting changed: since the last pass, during the pass
//! under way (it grows as capacity is released in the pass), and since the wait breakdown
//! last looked. The ledger marks a type whenever it changes one (R16).

use alloc::vec;
use alloc::vec::Vec;

use crate::scenario::TypeId;

/// Types whose capacity or accounting changed: since the last pass, and during the pass
/// under way (it grows as capacity is released in the pass).
#[derive(Clone, Debug)]
pub(crate) struct TypeChanges {
    since_pass: Vec<bool>,
    in_pass: Vec<bool>,
    any: bool,
    /// Since the wait breakdown last looked (held instances included, R16).
    since_look: Vec<bool>,
    any_look: bool,
}

impl TypeChanges {
    /// Nothing changed yet, over `nt` types.
    pub fn new(nt: usize) -> Self {
        TypeChanges {
            since_pass: vec![false; nt],
            in_pass: vec![false; nt],
            any: false,
            since_look: vec![false; nt],
            any_look: false,
        }
    }

    /// Type `t` changed.
    pub fn mark(&mut self, t: TypeId) {
        self.since_pass[t.index()] = true;
        self.in_pass[t.index()] = true;
        self.any = true;
        self.since_look[t.index()] = true;
        self.any_look = true;
    }

    /// Type `t`'s held free instances changed (R16): for the wait breakdown only, not the
    /// pass.
    pub fn mark_for_look(&mut self, t: TypeId) {
        self.since_look[t.index()] = true;
        self.any_look = true;
    }

    /// Whether type `t`'s capacity, accounting or held free instances (R16) changed since
    /// [`Self::looked`]: what the wait breakdown reads.
    #[inline]
    pub fn since_look(&self, t: TypeId) -> bool {
        self.since_look[t.index()]
    }

    /// Whether any type changed since [`Self::looked`].
    #[inline]
    pub fn any_since_look(&self) -> bool {
        self.any_look
    }

    /// The wait breakdown has looked at every change.
    pub fn looked(&mut self) {
        if core::mem::take(&mut self.any_look) {
            self.since_look.iter_mut().for_each(|x| *x = false);
        }
    }

    /// Whether any type changed since [`Self::clear`].
    pub fn any(&self) -> bool {
        self.any
    }

    /// Forget that any type changed (the pass has seen them).
    pub fn clear(&mut self) {
        self.any = false;
    }

    /// Start of a pass: the types changed since the last pass are the pass's.
    pub fn begin_pass(&mut self) {
        core::mem::swap(&mut self.in_pass, &mut self.since_pass);
        self.since_pass.iter_mut().for_each(|x| *x = false);
    }

    /// End of a pass.
    pub fn end_pass(&mut self) {
        self.in_pass.iter_mut().for_each(|x| *x = false);
    }

    /// Whether type `t` changed since the last pass or during this one.
    #[inline]
    pub fn in_pass(&self, t: TypeId) -> bool {
        self.in_pass[t.index()]
    }
}
