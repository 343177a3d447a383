"""What a Halide pipeline reads and writes, in the suite's terms: each
parameter or output is a view (`Arg`) of one C array of the kernel."""

from dataclasses import dataclass, field

import halide as hl


@dataclass
class Arg:
    """A halide_buffer_t over the suite's array `array`: dimensions as (min,
    extent, stride) in elements, innermost first, and the offset in elements
    from the array's start to the element at the mins."""
    array: str
    type: hl.Type
    dims: list
    offset: int = 0

    def describe(self):
        code = {hl.TypeCode.Int: 0, hl.TypeCode.UInt: 1}[self.type.code()]
        return {"array": self.array, "code": code, "bits": self.type.bits(), "dims": self.dims, "offset": self.offset}


@dataclass
class Pipeline:
    inputs: list = field(default_factory=list)  # (ImageParam, Arg)
    outputs: list = field(default_factory=list)  # (Func, Arg)

    def param(self, array, type, dims, offset=0):
        p = hl.ImageParam(type, len(dims), array)
        self.inputs.append((p, Arg(array, type, dims, offset)))
        return p

    def output(self, func, array, dims, offset=0):
        self.outputs.append((func, Arg(array, func.type(), dims, offset)))
        return func


def image(width, height, stride=None):
    """Dimensions of a whole row-major image."""
    return [(0, width, 1), (0, height, stride or width)]


def vector_size(target, type):
    return target.natural_vector_size(type)
