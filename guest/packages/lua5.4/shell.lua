-- SPDX-License-Identifier: MIT
-- io.popen and os.execute (reference manual sections 6.8, 6.9): the shell, /bin/sh, runs
-- as a child process.
local p = assert(io.popen("echo popen works"))
assert(p:read("a") == "popen works\n")
assert(p:close())
assert(os.execute("exit 3") == nil)
assert(select(3, os.execute("exit 3")) == 3)
print("shell ok")
