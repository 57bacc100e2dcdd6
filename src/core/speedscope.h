// SPDX-License-Identifier: MIT
// Speedscope files: the folded call stacks --profile writes ("f;g;h 123" lines) as one
// "sampled" profile of speedscope's JSON file format (https://www.speedscope.app; the
// format is its src/lib/file-format-spec.ts: "$schema", shared.frames [{name}], profiles
// [{type "sampled", name, unit, startValue, endValue, samples: stacks of frame indices,
// root first, weights}]), so that the profile can be zoomed and searched in that viewer
// (and others that read it). Each folded line is one sample weighing its pcycles.
#ifndef HEXSIM_CORE_SPEEDSCOPE_H
#define HEXSIM_CORE_SPEEDSCOPE_H

#include <stddef.h>

// Reads folded_path and writes json_path, the profile called name. 0, or -1 with a message.
int hexsim_speedscope_write(const char *folded_path, const char *json_path, const char *name,
                            char *msg, size_t msglen);

#endif
