"""Dot products as a Halide programmer schedules them for integer dot
instructions: the reduction split into four-element groups (the width of
x86 vpdpbusd, Arm sdot/udot/usdot and Hexagon vrmpy), those groups summed
with an atomic vectorized reduction across a vector of lanes (rfactor), and
the lanes summed once at the end."""

import halide as hl

from args import vector_size

GROUP = 4


class Dot:
    """acc[vars] = sum over k < length of product(k), as i32."""

    def __init__(self, name, vars, length, product, target, groups=()):
        lanes = vector_size(target, hl.Int(32))
        inner = 1
        for extent in groups:
            inner *= extent
        while (length // inner) % (GROUP * lanes) and lanes > 1:
            lanes //= 2
        self.lanes = lanes
        # r.x: within a group; r.y: the lane; r.z: vectors of groups; then any outer reductions (groups).
        self.r = hl.RDom([(0, GROUP), (0, lanes), (0, length // inner // (GROUP * lanes)), *[(0, g) for g in groups]], name + "_r")
        self.acc = hl.Func(name)
        self.acc[vars] = hl.i32(0)
        self.acc[vars] += product(self.r, self.r.z * (GROUP * lanes) + self.r.y * GROUP + self.r.x)
        self.vars = vars

    def schedule(self, consumer, at, unrolled=None):
        """Computed per iteration of `consumer`'s `at`; `unrolled`, a pure
        variable of the accumulator, is unrolled inside so its values share
        each vector the other operand loads."""
        lane = hl.Var("lane")
        r = self.r
        intm = self.acc.update().rfactor(r.y, lane)
        # rfactor appends the lane to the variables; keep it innermost in memory too.
        intm.reorder_storage([lane, *self.vars]).compute_at(consumer, at).vectorize(lane)
        order = [r.x, lane] + ([unrolled] if unrolled is not None else []) + [r.z] + [r[i] for i in range(3, r.dimensions())]
        stage = intm.update().reorder([hl.VarOrRVar(v) for v in order]).atomic().vectorize(r.x).vectorize(lane)
        if unrolled is not None:
            intm.unroll(unrolled)
            stage.unroll(unrolled)
        self.acc.compute_at(consumer, at)
        self.acc.update().atomic().vectorize(r.y)
        if unrolled is not None:
            self.acc.unroll(unrolled)
            self.acc.update().unroll(unrolled)
