"""One module per operator family; importing a module registers its variants."""

MODULES = ["conv", "fc", "pool", "elementwise", "activations", "shape",
           "resize", "reduce", "quantize", "stateful", "int32",
           "chain", "residual", "conv_borders", "elementwise_int"]
