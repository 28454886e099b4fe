"""One module per operator family; importing a module registers its variants."""

MODULES = ["conv", "fc", "pool", "elementwise", "activations", "shape",
           "resize", "reduce", "quantize", "stateful", "int32",
           "chain", "residual", "conv_borders", "float_nn", "blocks",
           "control_flow", "float_elementwise", "float_unary", "float_data", "float_reduce",
           "elementwise_int", "indexing", "normalization", "fill_select", "floor_add_n", "signal",
           "decode", "detection", "sparse", "int4", "sign"]
