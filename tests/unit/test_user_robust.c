// SPDX-License-Identifier: MIT
// Check suite for bad-input handling in Linux user mode, with regression tests for what the
// fuzz targets of tests/fuzz/ found: the mmap2 free-space search, the guest-memory cap
// (hexsim_mem max_pages), refused path system calls (opts.no_host_paths) and the ELF loader
// from memory on truncated and malformed images (and from a file, whose segments are read
// into guest memory directly), and an argument list too big for the stack.
#include "../check_main.h"
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "user/user.h"
#include "user_test_lib.h"

enum { NR_openat = 56, NR_fstatat = 79, NR_mmap2 = 222 };

static struct hexsim_user *new_user(void)
{
    struct hexsim_user *u = test_user_new();
    u->brk_start = u->brk_cur = 0x00100000u;
    return u;
}

static uint32_t sys(struct hexsim_user *u, uint32_t nr, uint32_t a0, uint32_t a1, uint32_t a2,
                    uint32_t a3, uint32_t a4, uint32_t a5)
{
    return test_user_syscall(u, nr, (const uint32_t[]){ a0, a1, a2, a3, a4, a5 }, 6);
}

// Found by fuzz_syscall: the search for free space restarted one page after each failed
// start, rescanning the whole length every time, so a large mmap2 below an existing mapping
// took time quadratic in its length (hours for 1 GiB). It now resumes past the mapped page.
START_TEST(test_mmap_search_linear)
{
    struct hexsim_user *u = new_user();
    const uint32_t len = 0x40000000u, hint = 0x01000000u;
    const uint32_t blocker = hint + len - HEXSIM_PAGE_SIZE;   // last page of the first try
    ck_assert_int_eq(hexsim_mem_map(&u->mem, blocker, HEXSIM_PAGE_SIZE, HEXSIM_PROT_R), 0);
    u->mem.max_pages = 16;   // the search is the point, not mapping 1 GiB
    uint32_t r = sys(u, NR_mmap2, hint, len, 3, 0x22, 0xffffffffu, 0);
    ck_assert_int_eq((int32_t)r, -ENOMEM);
    // the space found starts right after the blocking page
    ck_assert_uint_eq(u->mmap_next, blocker + HEXSIM_PAGE_SIZE + len);
    test_user_free(u);
}
END_TEST

START_TEST(test_mem_max_pages)
{
    struct hexsim_mem m;
    hexsim_mem_init(&m);
    m.max_pages = 4;
    ck_assert_int_eq(hexsim_mem_map(&m, 0x10000, 4 * HEXSIM_PAGE_SIZE, HEXSIM_PROT_R), 0);
    ck_assert_int_eq(hexsim_mem_map(&m, 0x10000, 4 * HEXSIM_PAGE_SIZE, HEXSIM_PROT_W), 0);
    ck_assert_int_eq(hexsim_mem_map(&m, 0x20000, HEXSIM_PAGE_SIZE, HEXSIM_PROT_R),
                     HEXSIM_MEM_NOMEM);
    ck_assert_uint_eq(m.mapped_pages, 4);
    hexsim_mem_unmap(&m, 0x10000, HEXSIM_PAGE_SIZE);
    ck_assert_int_eq(hexsim_mem_map(&m, 0x20000, HEXSIM_PAGE_SIZE, HEXSIM_PROT_R), 0);
    hexsim_mem_free(&m);
}
END_TEST

START_TEST(test_no_host_paths)
{
    struct hexsim_user *u = new_user();
    u->opts.no_host_paths = true;
    ck_assert_int_eq(hexsim_mem_map(&u->mem, 0x20000, HEXSIM_PAGE_SIZE,
                                    HEXSIM_PROT_R | HEXSIM_PROT_W), 0);
    const char path[] = "/tmp/hexsim-no-host-paths";
    ck_assert_int_eq(hexsim_mem_copy_in(&u->mem, 0x20000, path, sizeof path, false, NULL), 0);
    ck_assert_int_eq((int32_t)sys(u, NR_openat, (uint32_t)-100, 0x20000, 0x241, 0644, 0, 0),
                     -EACCES);
    ck_assert_int_eq((int32_t)sys(u, NR_fstatat, (uint32_t)-100, 0x20000, 0x20100, 0, 0, 0),
                     -EACCES);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_null(f);
    // a bad pointer is still EFAULT, as before the check
    ck_assert_int_eq((int32_t)sys(u, NR_openat, (uint32_t)-100, 0x90000, 0, 0, 0, 0), -EFAULT);
    test_user_free(u);
}
END_TEST

// A minimal ELF32 Hexagon executable: header, one PT_LOAD of the first `filesz` bytes at
// 0x10000 (entry 0x10054: the word after the headers).
static size_t make_elf(uint8_t *b, uint32_t filesz, uint32_t memsz)
{
    memset(b, 0, 0x60);
    memcpy(b, "\177ELF\1\1\1", 7);
    b[16] = 2;      // ET_EXEC
    b[18] = 164;    // EM_QDSP6
    b[20] = 1;      // EV_CURRENT
    uint32_t w[] = { 0x10054, 52 };   // e_entry, e_phoff
    memcpy(b + 24, w, 8);
    b[36] = 0x68;   // e_flags: V68
    b[40] = 52;     // e_ehsize
    b[42] = 32;     // e_phentsize
    b[44] = 1;      // e_phnum
    uint32_t ph[8] = { 1, 0, 0x10000, 0x10000, filesz, memsz, 5, 0x1000 };
    memcpy(b + 52, ph, sizeof ph);
    uint32_t insn = 0x7800c000;   // r0 = #0
    memcpy(b + 0x54, &insn, 4);
    return 0x58;
}

START_TEST(test_elf_mem)
{
    uint8_t img[0x60];
    char err[256];
    size_t n = make_elf(img, 0x58, 0x2000);
    struct hexsim_user *u = new_user();
    ck_assert_int_eq(hexsim_user_load_elf_mem(u, img, n, "img", err, sizeof err), 0);
    ck_assert_uint_eq(u->entry, 0x10054);
    ck_assert_uint_eq(hexsim_arch_version(u->arch), 68);
    ck_assert_uint_eq(u->arch & HEXSIM_ARCH_HVX_ALL, HEXSIM_ARCH_HVX_ALL);   // (HVX on for processes)
    ck_assert_uint_eq(u->brk_start, 0x12000);
    uint32_t w = 0;
    ck_assert_int_eq(hexsim_mem_copy_out(&u->mem, 0x10054, &w, 4, HEXSIM_PROT_R, NULL), 0);
    ck_assert_uint_eq(w, 0x7800c000);
    test_user_free(u);

    // a segment whose bytes run past the end of the image
    make_elf(img, 0x59, 0x2000);
    u = new_user();
    ck_assert_int_eq(hexsim_user_load_elf_mem(u, img, n, "img", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "file too short"));
    test_user_free(u);

    // a segment reaching into the stack: refused before anything is mapped
    make_elf(img, 0x58, 0xbf800000u);
    u = new_user();
    ck_assert_int_eq(hexsim_user_load_elf_mem(u, img, n, "img", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "outside the user address space"));
    ck_assert_uint_eq(u->mem.mapped_pages, 0);
    test_user_free(u);

    // 2.75 GiB of zero-fill: allowed by the address space, stopped by a memory cap
    make_elf(img, 0x58, 0xb0000000u);
    u = new_user();
    u->mem.max_pages = 64;
    ck_assert_int_eq(hexsim_user_load_elf_mem(u, img, n, "img", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "out of memory mapping segment 0"));
    test_user_free(u);

    // truncated in the middle of the program headers, and empty
    u = new_user();
    ck_assert_int_eq(hexsim_user_load_elf_mem(u, img, 60, "img", err, sizeof err), -1);
    ck_assert_int_eq(hexsim_user_load_elf_mem(u, img, 0, "img", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "img: "));
    test_user_free(u);
}
END_TEST

// Found by the issue-13 audit: with many short arguments the strings fit in the stack but
// their pointer array did not; the stack pointer wrapped below the stack's base, the size
// check passed and the guest got a stack of unwritten words. It is now refused.
// The same images from a file: the segments' bytes are read from it into guest memory.
START_TEST(test_elf_file)
{
    uint8_t img[0x60];
    char err[256], path[] = "/tmp/hexsim_elf_XXXXXX";
    size_t n = make_elf(img, 0x58, 0x2000);
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, img, n), (ssize_t)n);
    struct hexsim_user *u = new_user();
    ck_assert_int_eq(hexsim_user_load_elf(u, path, err, sizeof err), 0);
    ck_assert_uint_eq(u->entry, 0x10054);
    ck_assert_uint_eq(u->brk_start, 0x12000);
    uint32_t w = 0;
    ck_assert_int_eq(hexsim_mem_copy_out(&u->mem, 0x10054, &w, 4, HEXSIM_PROT_R, NULL), 0);
    ck_assert_uint_eq(w, 0x7800c000);
    ck_assert_int_eq(hexsim_mem_copy_out(&u->mem, 0x10058, &w, 4, HEXSIM_PROT_R, NULL), 0);
    ck_assert_uint_eq(w, 0);                       // past the file's bytes: zero
    test_user_free(u);

    // a segment whose bytes run past the end of the file
    make_elf(img, 0x59, 0x2000);
    ck_assert_int_eq(pwrite(fd, img, n, 0), (ssize_t)n);
    u = new_user();
    ck_assert_int_eq(hexsim_user_load_elf(u, path, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "file too short"));
    test_user_free(u);
    close(fd);
    unlink(path);
}
END_TEST

START_TEST(test_stack_argv_overflow)
{
    struct hexsim_user *u = new_user();
    const int argc = 1800000;   // 1.8 MB of strings, 7.2 MB of pointers: more than 8 MiB
    char **argv = calloc((size_t)argc + 1, sizeof *argv);
    ck_assert_ptr_nonnull(argv);
    char empty[] = "";
    for (int i = 0; i < argc; i++)
        argv[i] = empty;
    char *envp[] = { NULL };
    char err[200] = "";
    ck_assert_int_eq(hexsim_user_setup_stack(u, argc, argv, envp, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "do not fit"));
    ck_assert_int_eq(hexsim_user_setup_stack(u, 3, argv, envp, err, sizeof err), 0);
    free(argv);
    test_user_free(u);
}
END_TEST

static Suite *user_robust_suite(void)
{
    Suite *s = suite_create("user_robust");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_mmap_search_linear);
    tcase_add_test(tc, test_mem_max_pages);
    tcase_add_test(tc, test_no_host_paths);
    tcase_add_test(tc, test_elf_mem);
    tcase_add_test(tc, test_elf_file);
    tcase_add_test(tc, test_stack_argv_overflow);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return hexsim_check_run(user_robust_suite());
}
