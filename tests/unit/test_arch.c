// SPDX-License-Identifier: MIT
// Check suite for the core versions (include/hexsim/arch.h, src/cpu/arch.c): names as
// --mcpu takes them, ELF e_flags, and which rows decode on which core: the audio extension
// only on the "t" cores, decbin (CABAC) everywhere but on them and on V73, the V73 branches
// from V73 on (as llvm-objdump-16 decodes them; tests/isa compares whole listings).
#include <check.h>
#include <stdlib.h>

#include "cpu/decode.h"
#include "hexsim/arch.h"

#define T HEXSIM_ARCH_TINY

START_TEST(test_parse)
{
    static const struct { const char *name; unsigned arch; } cases[] = {
        { "hexagonv73", 73 }, { "v73", 73 }, { "73", 73 }, { "V69", 69 }, { "v71", 71 },
        { "hexagonv5", 5 }, { "v55", 55 }, { "hexagonv68", 68 },
        { "hexagonv67t", 67 | T }, { "v71t", 71 | T },
        { "v68t", 0 }, { "v73t", 0 }, { "v72", 0 }, { "v99", 0 }, { "v6", 0 }, { "", 0 },
        { "hexagon", 0 }, { "v73x", 0 }, { "v67tt", 0 }, { "t", 0 },
        { "v99999999999999999999", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_msg(hexsim_arch_parse(cases[i].name) == cases[i].arch, "'%s': %#x, want %#x",
                      cases[i].name, hexsim_arch_parse(cases[i].name), cases[i].arch);
}
END_TEST

START_TEST(test_eflags)
{
    static const struct { uint32_t flags; unsigned arch; } cases[] = {
        { 0x04, 5 }, { 0x05, 55 }, { 0x60, 60 }, { 0x68, 68 }, { 0x73, 73 },
        { 0x8067, 67 | T }, { 0x8071, 71 | T }, { 0x75, 75 }, { 0, 0 }, { 0x5a, 0 },
        { 0x6a, 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_msg(hexsim_arch_from_eflags(cases[i].flags) == cases[i].arch,
                      "e_flags %#x: %#x, want %#x", cases[i].flags,
                      hexsim_arch_from_eflags(cases[i].flags), cases[i].arch);
    ck_assert_uint_eq(hexsim_arch_version(71 | T), 71);
}
END_TEST

static bool decodes(uint32_t word, unsigned arch)
{
    struct hexsim_packet pkt;
    return hexsim_decode_packet(&word, 1, 0x1000, arch, &pkt) == HX_DECODE_OK;
}

START_TEST(test_gating)
{
    const uint32_t cmpyiw = 0xe862c440, clip = 0x88c1c5a0, decbin = 0xc1d8d4cc,
                   callrh = 0x50c5c000, jumprh = 0x52c6c000, unpause = 0x57e0d000;
    ck_assert(decodes(cmpyiw, 67 | T) && decodes(cmpyiw, 71 | T) && decodes(clip, 67 | T));
    ck_assert(!decodes(cmpyiw, 67) && !decodes(cmpyiw, 68) && !decodes(cmpyiw, 73));
    ck_assert(!decodes(clip, 73));
    ck_assert(decodes(decbin, 60) && decodes(decbin, 68) && decodes(decbin, 71));
    ck_assert(!decodes(decbin, 67 | T) && !decodes(decbin, 71 | T) && !decodes(decbin, 73));
    ck_assert(decodes(callrh, 73) && decodes(jumprh, 73) && decodes(unpause, 73));
    ck_assert(!decodes(callrh, 71 | T) && !decodes(jumprh, 71) && !decodes(unpause, 68));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("arch");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_parse);
    tcase_add_test(tc, test_eflags);
    tcase_add_test(tc, test_gating);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
