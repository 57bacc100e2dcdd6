// SPDX-License-Identifier: MIT
// Check suite for the guest root of user mode (-L DIR, src/user/interp.c): paths are looked
// up inside the root as if it were "/", so neither ".." nor a symbolic link (absolute or
// relative, in the middle of a path or at its end, chained) reaches outside it; the library
// directories are the root's only; a program with PT_INTERP and no root is refused.
#include "../check_main.h"
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "user/user.h"
#include "user_test_lib.h"

// A scratch tree: T/root/{lib/real.so, usr/lib/, etc/} and T/outside/secret, with links.
struct tree {
    char top[256], root[300], outside[300];
};

static void mk(const char *path)
{
    ck_assert_int_eq(mkdir(path, 0755), 0);
}

static void touch(const char *path)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
}

static void link_at(const char *dir, const char *name, const char *target)
{
    char p[600];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    ck_assert_int_eq(symlink(target, p), 0);
}

static void make_tree(struct tree *t)
{
    snprintf(t->top, sizeof t->top, "/tmp/hexsim-root-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(t->top));
    snprintf(t->root, sizeof t->root, "%s/root", t->top);
    snprintf(t->outside, sizeof t->outside, "%s/outside", t->top);
    char p[600];
    mk(t->root);
    mk(t->outside);
    snprintf(p, sizeof p, "%s/secret", t->outside);
    touch(p);
    snprintf(p, sizeof p, "%s/lib", t->root);
    mk(p);
    snprintf(p, sizeof p, "%s/lib/real.so", t->root);
    touch(p);
    snprintf(p, sizeof p, "%s/usr", t->root);
    mk(p);
    snprintf(p, sizeof p, "%s/usr/lib", t->root);
    mk(p);
    snprintf(p, sizeof p, "%s/lib", t->root);
    link_at(p, "abs.so", "/lib/real.so");             // absolute, inside: root/lib/real.so
    link_at(p, "rel.so", "../lib/./real.so");          // relative, inside
    char out[600];
    snprintf(out, sizeof out, "%s/secret", t->outside);
    link_at(p, "out-abs", out);                        // absolute, to a host file outside
    link_at(p, "out-rel", "../../outside/secret");     // relative, past the root's top
    link_at(p, "loop", "loop");
    snprintf(p, sizeof p, "%s/usr/lib", t->root);
    link_at(p, "up", "../..");                         // a directory link: the root
    link_at(p, "chain", "/usr/lib/up/lib/abs.so");     // links through links
}

static void rm_tree(const struct tree *t)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->top);
    ck_assert_int_eq(system(cmd), 0);
}

// The lookup of guest path p in the tree's root: 0 and the host path, or -errno.
static int look(const struct tree *t, const char *p, char *out)
{
    return hexsim_user_root_path(t->root, p, out, 600);
}

START_TEST(test_root_inside)
{
    struct tree t;
    make_tree(&t);
    char out[600], want[600];
    snprintf(want, sizeof want, "%s/lib/real.so", t.root);
    const char *same[] = { "/lib/real.so", "/lib/abs.so", "/lib/rel.so", "//lib/../lib/real.so",
                           "/../../../lib/real.so", "/usr/lib/up/lib/real.so",
                           "/usr/lib/chain", "/usr/../../lib/./real.so" };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        ck_assert_msg(look(&t, same[i], out) == 0, "%s not found", same[i]);
        ck_assert_str_eq(out, want);
    }
    ck_assert_int_eq(look(&t, "/", out), 0);
    snprintf(want, sizeof want, "%s/", t.root);
    ck_assert_str_eq(out, want);
    rm_tree(&t);
}
END_TEST

START_TEST(test_root_walls)
{
    struct tree t;
    make_tree(&t);
    char out[600], up[600];
    // links and ".." out of the root: the files outside are not reached
    ck_assert_int_eq(look(&t, "/lib/out-abs", out), -ENOENT);
    ck_assert_int_eq(look(&t, "/lib/out-rel", out), -ENOENT);
    snprintf(up, sizeof up, "/../../../../../../..%s/secret", t.outside);
    ck_assert_int_eq(look(&t, up, out), -ENOENT);
    ck_assert_int_eq(look(&t, "/lib/loop", out), -ELOOP);
    ck_assert_int_eq(look(&t, "/lib/real.so/x", out), -ENOTDIR);
    ck_assert_int_eq(look(&t, "/lib/real.so/", out), -ENOTDIR);
    ck_assert_int_eq(look(&t, "/lib/abs.so/", out), -ENOTDIR);
    ck_assert_int_eq(look(&t, "/usr/lib/up/", out), 0);   // a link to a directory
    ck_assert_int_eq(look(&t, "/nonexistent", out), -ENOENT);

    // the guest's opens: outside the library directories a path not in the root goes to
    // the host; inside them it stays in the root
    struct hexsim_user *u = test_user_new();
    u->opts.ld_prefix = t.root;
    char p[4096];
    snprintf(p, sizeof p, "/lib/abs.so");
    ck_assert_int_eq(hexsim_user_root_redirect(u, p, sizeof p), 0);
    snprintf(up, sizeof up, "%s/lib/real.so", t.root);
    ck_assert_str_eq(p, up);
    snprintf(p, sizeof p, "/lib/out-abs");
    ck_assert_int_eq(hexsim_user_root_redirect(u, p, sizeof p), -ENOENT);
    snprintf(p, sizeof p, "/usr/lib/libnothere.so");
    ck_assert_int_eq(hexsim_user_root_redirect(u, p, sizeof p), -ENOENT);
    snprintf(p, sizeof p, "/tmp");
    ck_assert_int_eq(hexsim_user_root_redirect(u, p, sizeof p), 0);
    ck_assert_str_eq(p, "/tmp");
    snprintf(p, sizeof p, "relative/lib");
    ck_assert_int_eq(hexsim_user_root_redirect(u, p, sizeof p), 0);
    ck_assert_str_eq(p, "relative/lib");
    test_user_free(u);
    rm_tree(&t);
}
END_TEST

// A minimal Hexagon ELF with a PT_INTERP: refused from memory (no guest root there).
START_TEST(test_interp_refused)
{
    uint8_t b[0x100] = { 0x7f, 'E', 'L', 'F', 1, 1, 1 };
    b[16] = 2;      // ET_EXEC
    b[18] = 164;    // EM_QDSP6
    b[20] = 1;
    uint32_t w[] = { 0x10080, 52 };   // e_entry, e_phoff
    memcpy(b + 24, w, 8);
    b[36] = 0x68;
    b[40] = 52;
    b[42] = 32;
    b[44] = 2;      // e_phnum
    const char interp[] = "/lib/ld-musl-hexagon.so.1";
    uint32_t ph0[8] = { 3, 0xa0, 0, 0, sizeof interp, sizeof interp, 4, 1 };   // PT_INTERP
    uint32_t ph1[8] = { 1, 0, 0x10000, 0x10000, 0x100, 0x100, 5, 0x1000 };
    memcpy(b + 52, ph0, sizeof ph0);
    memcpy(b + 84, ph1, sizeof ph1);
    memcpy(b + 0xa0, interp, sizeof interp);
    char err[512];
    struct hexsim_user *u = test_user_new();
    ck_assert_int_eq(hexsim_user_load_elf_mem(u, b, sizeof b, "dyn", err, sizeof err),
                     HEXSIM_USER_NO_INTERP);
    ck_assert_ptr_nonnull(strstr(err, interp));
    ck_assert_str_eq(u->interp, interp);
    test_user_free(u);

    // a PT_INTERP that is not one NUL-terminated string
    b[0xa0 + sizeof interp - 1] = 'x';
    u = test_user_new();
    ck_assert_int_eq(hexsim_user_load_elf_mem(u, b, sizeof b, "dyn", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "PT_INTERP"));
    test_user_free(u);
}
END_TEST

static Suite *user_root_suite(void)
{
    Suite *s = suite_create("user_root");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_root_inside);
    tcase_add_test(tc, test_root_walls);
    tcase_add_test(tc, test_interp_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return hexsim_check_run(user_root_suite());
}
