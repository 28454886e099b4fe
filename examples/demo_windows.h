/* demo_windows.h - the four example windows of examples/demo/inputs.bin
 * (one per class, float32[16] each), for applications without a file system.
 * Written from inputs.bin; make_model.py makes both. */
#ifndef DEMO_WINDOWS_H
#define DEMO_WINDOWS_H

#define DEMO_NUM_WINDOWS 4
#define DEMO_WINDOW_LEN 16

static const char *const demo_class_names[4] = {"flat", "rising", "falling", "oscillating"};

static const float demo_windows[DEMO_NUM_WINDOWS][DEMO_WINDOW_LEN] = {
    {/* flat */
     -0.0541826934f, 0.0555283614f, -0.00705071911f, 0.0732442886f,
     -0.186176762f, 0.155210599f, -0.0110874912f, 0.0665935725f,
     -0.0151009085f, -0.0393541306f, 0.0448667407f, 0.0810070783f,
     -0.0216972623f, -0.0167228933f, 0.0671255887f, -0.0884783417f,
    },
    {/* rising */
     -0.348879427f, -0.387149245f, -0.16942203f, 0.0200101659f,
     0.133328348f, -0.184438586f, -0.00172194745f, 0.188527569f,
     0.338510424f, 0.285094321f, 0.23075816f, 0.397486597f,
     0.428511649f, 0.472199589f, 0.481526643f, 0.656099856f,
    },
    {/* falling */
     0.403379351f, 0.157924935f, 0.256089717f, 0.198877394f,
     0.197815165f, 0.0601787902f, -0.148938879f, -0.243935674f,
     -0.0574734658f, -0.269844621f, -0.249339655f, -0.306514382f,
     -0.688242435f, -0.654882312f, -0.734567761f, -0.811398447f,
    },
    {/* oscillating */
     0.757130086f, 0.940850735f, -0.192171529f, -0.955133915f,
     -0.544949293f, 0.818450093f, 0.857872784f, -0.286060333f,
     -0.981433511f, -0.283800334f, 0.833671212f, 0.858027101f,
     -0.104682572f, -1.06301701f, -0.467780054f, 0.744681299f,
    },
};

#endif /* DEMO_WINDOWS_H */
