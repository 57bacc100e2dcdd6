// SPDX-License-Identifier: MIT
// std::filesystem (libc++'s <filesystem> over musl's POSIX calls) in the scratch
// directory given as argv[1]: create_directories, files written with ofstream,
// directory_iterator and recursive_directory_iterator (sorted: their order is the
// file system's), file_size, status and file types, symlinks, rename, copy_file,
// resize_file, last_write_time set and read back, permissions, remove and remove_all
// with their counts, error_code results for missing paths, filesystem_error, and path
// decomposition. Errors are printed as errno names, the same on every Linux.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

namespace fs = std::filesystem;

namespace {

const char *errname(const std::error_code &ec)
{
    if (!ec)
        return "ok";
    switch (ec.value()) {
    case ENOENT: return "ENOENT";
    case EEXIST: return "EEXIST";
    case ENOTDIR: return "ENOTDIR";
    case ENOTEMPTY: return "ENOTEMPTY";
    case EISDIR: return "EISDIR";
    default: return "other";
    }
}

const char *kind(fs::file_type t)
{
    switch (t) {
    case fs::file_type::regular: return "regular";
    case fs::file_type::directory: return "directory";
    case fs::file_type::symlink: return "symlink";
    case fs::file_type::not_found: return "not_found";
    default: return "other";
    }
}

void write(const fs::path &p, const std::string &text)
{
    std::ofstream(p) << text;
}

std::vector<std::string> listing(const fs::path &root, bool recursive)
{
    std::vector<std::string> names;
    if (recursive) {
        for (auto &e : fs::recursive_directory_iterator(root))
            names.push_back(e.path().lexically_relative(root).string() + (e.is_directory() ? "/" : ""));
    } else {
        for (auto &e : fs::directory_iterator(root))
            names.push_back(e.path().filename().string() + (e.is_directory() ? "/" : ""));
    }
    std::sort(names.begin(), names.end());
    return names;
}

void show(const char *what, const std::vector<std::string> &names)
{
    std::printf("%s (%zu):", what, names.size());
    for (auto &n : names)
        std::printf(" %s", n.c_str());
    std::printf("\n");
}

void paths()
{
    fs::path p("/usr/local/lib/libfoo.so.1");
    std::printf("filename %s stem %s extension %s parent %s\n", p.filename().c_str(),
                p.stem().c_str(), p.extension().c_str(), p.parent_path().c_str());
    fs::path q = fs::path("a") / "b" / ".." / "c" / "." / "d.txt";
    std::printf("joined %s normal %s\n", q.c_str(), q.lexically_normal().c_str());
    std::printf("relative %s\n", fs::path("/a/b/c").lexically_relative("/a/x").c_str());
    std::printf("absolute? %d %d, has_root %d\n", p.is_absolute(), q.is_absolute(),
                q.has_root_path());
    fs::path r = p;
    r.replace_extension(".conf");
    std::printf("replace_extension %s\n", r.c_str());
    int n = 0;
    for (const auto &part : p)
        std::printf("%s[%s]", n++ ? "" : "parts ", part.c_str());
    std::printf("\n");
}

void tree(const fs::path &top)
{
    fs::path root = top / "fs-test";
    fs::remove_all(root);
    std::printf("create_directories: %d\n", fs::create_directories(root / "a" / "b" / "c"));
    std::printf("again: %d\n", fs::create_directories(root / "a" / "b" / "c"));
    fs::create_directory(root / "empty");
    write(root / "one.txt", "hello\n");
    write(root / "a" / "two.dat", std::string(1000, 'x'));
    write(root / "a" / "b" / "three", "3");
    fs::create_symlink("one.txt", root / "link");
    show("list", listing(root, false));
    show("recursive", listing(root, true));

    std::printf("size one.txt %ju two.dat %ju\n", static_cast<uintmax_t>(fs::file_size(root / "one.txt")),
                static_cast<uintmax_t>(fs::file_size(root / "a" / "two.dat")));
    std::printf("types: %s %s %s (symlink_status), %s (status)\n",
                kind(fs::status(root / "one.txt").type()), kind(fs::status(root / "a").type()),
                kind(fs::symlink_status(root / "link").type()),
                kind(fs::status(root / "link").type()));
    std::printf("read_symlink %s, canonical ends in one.txt: %d\n",
                fs::read_symlink(root / "link").c_str(),
                fs::canonical(root / "link").filename() == "one.txt");
    std::printf("is_empty(empty) %d, is_empty(a) %d\n", fs::is_empty(root / "empty"),
                fs::is_empty(root / "a"));

    fs::rename(root / "one.txt", root / "renamed.txt");
    std::printf("after rename: old exists %d, new exists %d, link now %s\n",
                fs::exists(root / "one.txt"), fs::exists(root / "renamed.txt"),
                kind(fs::status(root / "link").type()));
    fs::copy_file(root / "renamed.txt", root / "copy.txt");
    std::error_code ec;
    bool copied = fs::copy_file(root / "renamed.txt", root / "copy.txt", ec);
    std::printf("copy over existing: %d %s\n", copied, errname(ec));
    copied = fs::copy_file(root / "renamed.txt", root / "copy.txt",
                           fs::copy_options::overwrite_existing, ec);
    std::printf("copy with overwrite: %d %s\n", copied, errname(ec));
    fs::resize_file(root / "copy.txt", 4096);
    std::printf("resized to %ju\n", static_cast<uintmax_t>(fs::file_size(root / "copy.txt")));

    auto when = fs::file_time_type::clock::now() - std::chrono::hours(24 * 400);
    fs::last_write_time(root / "copy.txt", when);
    auto back = fs::last_write_time(root / "copy.txt");
    auto diff = std::chrono::duration_cast<std::chrono::microseconds>(back - when).count();
    std::printf("last_write_time set and read back within 1 us: %d\n", diff > -1 && diff < 1);
    std::printf("copy is older than renamed: %d\n",
                fs::last_write_time(root / "copy.txt") < fs::last_write_time(root / "renamed.txt"));

    fs::permissions(root / "copy.txt", fs::perms::owner_read | fs::perms::group_read);
    std::printf("perms %03o\n", static_cast<unsigned>(fs::status(root / "copy.txt").permissions()));

    (void)fs::file_size(root / "nope", ec);
    std::printf("file_size(missing): %s\n", errname(ec));
    fs::create_directory(root / "renamed.txt" / "sub", ec);
    std::printf("create_directory under a file: %s\n", errname(ec));
    fs::remove(root / "a", ec);
    std::printf("remove(non-empty dir): %s\n", errname(ec));
    try {
        (void)fs::file_size(root / "nope");
    } catch (const fs::filesystem_error &e) {
        std::printf("filesystem_error %s, path1 ends in nope: %d\n", errname(e.code()),
                    e.path1().filename() == "nope");
    }
    bool removed = fs::remove(root / "link");
    std::printf("remove(link) %d, ", removed);
    removed = fs::remove(root / "link");
    std::printf("remove(missing) %d\n", removed);
    std::printf("remove_all(a) removed %ju\n", static_cast<uintmax_t>(fs::remove_all(root / "a")));
    show("left", listing(root, false));
    uintmax_t count = fs::remove_all(root);
    std::printf("remove_all(root) removed %ju, exists %d\n", count, fs::exists(root));

    fs::path cwd = fs::current_path();
    fs::current_path(top);
    std::printf("current_path follows chdir: %d\n", fs::equivalent(fs::current_path(), top));
    fs::current_path(cwd);
    auto space = fs::space(top);
    std::printf("space: capacity >= free: %d\n", space.capacity >= space.free);
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: filesystem DIR\n");
        return 2;
    }
    paths();
    tree(argv[1]);
    std::printf("ok\n");
    return 0;
}
