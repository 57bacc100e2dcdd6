// SPDX-License-Identifier: MIT
// iostreams (libc++'s streams over musl's stdio and locale "C"): std::cout with the
// standard manipulators (width, fill, alignment, bases, showbase, fixed and scientific
// precision, boolalpha), std::cerr, string streams for parsing and building text,
// std::getline, file streams writing, appending, seeking and reading back a file in the
// directory given as argv[1], binary I/O, stream state after a failed extraction, and
// std::to_string/std::stod. Everything printed is fixed by the C++ standard and C's
// printf rules, so the host's libstdc++ prints the same.
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

void formatting()
{
    std::cout << "plain " << 42 << ' ' << -7 << ' ' << 3.5 << ' ' << 'c' << ' ' << true << '\n';
    std::cout << std::boolalpha << true << ' ' << false << std::noboolalpha << '\n';
    std::cout << std::hex << 255 << ' ' << std::showbase << 255 << ' ' << std::uppercase << 255
              << std::nouppercase << std::noshowbase << std::dec << '\n';
    std::cout << std::oct << 8 << std::dec << ' ' << 8 << '\n';
    std::cout << '[' << std::setw(8) << 123 << "] [" << std::left << std::setw(8) << 123 << "] ["
              << std::right << std::setfill('0') << std::setw(8) << -123 << "]\n"
              << std::setfill(' ');
    std::cout << '[' << std::internal << std::setw(8) << -123 << "]\n" << std::right;
    std::cout << std::fixed << std::setprecision(3) << 3.14159265 << ' ' << 2.0 / 3.0 << '\n';
    std::cout << std::scientific << std::setprecision(4) << 123456.789 << ' ' << 1e-10 << '\n';
    std::cout << std::defaultfloat << std::setprecision(6) << 0.1 << ' ' << 1e21 << ' ' << 1.0 / 3
              << '\n';
    std::cout << std::showpos << 5 << ' ' << 0 << std::noshowpos << ' ' << std::showpoint << 2.0
              << std::noshowpoint << '\n';
    std::cout << "long long " << 9223372036854775807LL << " unsigned " << 4294967295U << '\n';
    std::cout << "string " << std::string("text") << " c-string " << "abc" << std::endl;
    std::cerr << "to stderr\n";
}

void stringstreams()
{
    std::istringstream in("12 34.5 word 0x1f\nsecond line here\nthird");
    int i;
    double d;
    std::string w;
    int h;
    in >> i >> d >> w >> std::hex >> h >> std::dec;
    std::cout << "parsed " << i << ' ' << d << ' ' << w << ' ' << h << '\n';
    std::string line;
    std::getline(in, line);
    std::cout << "rest of line 1: '" << line << "'\n";
    while (std::getline(in, line))
        std::cout << "line: '" << line << "'\n";
    std::cout << "eof " << in.eof() << " fail " << in.fail() << '\n';

    std::istringstream bad("abc");
    int n = 99;
    bad >> n;
    std::cout << "failed extraction: fail " << bad.fail() << " value " << n << '\n';
    bad.clear();
    std::string rest;
    bad >> rest;
    std::cout << "after clear: '" << rest << "'\n";

    std::ostringstream out;
    for (int k = 0; k < 5; k++)
        out << k * k << (k < 4 ? "," : "");
    out << " | " << std::setw(6) << std::setfill('*') << "x";
    std::cout << "built: " << out.str() << '\n';

    std::stringstream csv("a,b,,c");
    std::vector<std::string> fields;
    std::string f;
    while (std::getline(csv, f, ','))
        fields.push_back(f);
    std::cout << "fields " << fields.size();
    for (auto &x : fields)
        std::cout << " <" << x << '>';
    std::cout << '\n';
    std::cout << "to_string " << std::to_string(-17) << ' ' << std::to_string(2.5) << " stod "
              << std::stod("6.25e2") << " stol " << std::stol("-99") << '\n';
}

void files(const std::string &dir)
{
    const std::string path = dir + "/iostreams.txt";
    {
        std::ofstream o(path);
        o << "first " << 1 << '\n' << "second " << 2.25 << '\n';
    }
    {
        std::ofstream o(path, std::ios::app);
        o << "appended\n";
    }
    std::ifstream in(path);
    std::cout << "open " << in.is_open() << '\n';
    std::string line;
    while (std::getline(in, line))
        std::cout << "file: " << line << '\n';
    in.clear();
    in.seekg(6);
    int one;
    in >> one;
    std::cout << "seekg(6) >> int: " << one << '\n';
    in.seekg(0, std::ios::end);
    std::cout << "size " << in.tellg() << '\n';

    const std::string bin = dir + "/iostreams.bin";
    {
        std::ofstream o(bin, std::ios::binary);
        for (unsigned v = 0; v < 64; v++) {
            unsigned w = v * 0x01010101u;
            o.write(reinterpret_cast<const char *>(&w), sizeof w);
        }
    }
    std::ifstream b(bin, std::ios::binary);
    b.seekg(4 * 10);
    unsigned w = 0;
    b.read(reinterpret_cast<char *>(&w), sizeof w);
    std::cout << "binary word 10: " << std::hex << w << std::dec << " gcount " << b.gcount() << '\n';
    std::ifstream missing(dir + "/does-not-exist");
    std::cout << "missing file opens: " << missing.is_open() << '\n';
    std::remove(path.c_str());
    std::remove(bin.c_str());
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::cerr << "usage: iostreams DIR\n";
        return 2;
    }
    formatting();
    stringstreams();
    files(argv[1]);
    std::cout << "ok" << std::endl;
    return 0;
}
