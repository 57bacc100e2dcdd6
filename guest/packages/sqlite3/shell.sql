-- SPDX-License-Identifier: MIT
-- A session of the sqlite3 shell: schema, inserts, joins, aggregates, window functions,
-- recursive CTEs, JSON, date and math functions, printf, the shell's output modes and
-- .dump. Its expected output (shell.expected) is a host-native build's of the same source
-- with -DLONGDOUBLE_TYPE=double (Hexagon's long double is double; SQLite's printf rounds in
-- it, so x86-64's 80-bit one prints exp(1) as ...905, a 64-bit one as ...904).
CREATE TABLE dept(id INTEGER PRIMARY KEY, name TEXT UNIQUE);
CREATE TABLE emp(id INTEGER PRIMARY KEY, name TEXT, dept INTEGER REFERENCES dept, salary REAL, hired TEXT);
INSERT INTO dept(name) VALUES ('eng'), ('ops'), ('sales');
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
INSERT INTO emp(name, dept, salary, hired)
SELECT 'e' || i, 1 + i % 3, 1000 + (i * 7919) % 5000 + i / 8.0, date('2020-01-01', '+' || (i * 3) || ' days') FROM n;
CREATE INDEX emp_dept ON emp(dept, salary);
SELECT d.name, count(*), round(avg(e.salary), 3), min(e.hired), max(e.hired)
  FROM emp e JOIN dept d ON d.id = e.dept GROUP BY d.name ORDER BY d.name;
SELECT name, salary, rank() OVER (PARTITION BY dept ORDER BY salary DESC) AS r
  FROM emp WHERE id % 37 = 0 ORDER BY dept, r;
SELECT id, sum(salary) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM emp WHERE id <= 5;
WITH RECURSIVE fib(a, b, k) AS (SELECT 0, 1, 0 UNION ALL SELECT b, a + b, k + 1 FROM fib WHERE k < 90)
SELECT max(a), count(*) FROM fib;
SELECT json_object('n', 1, 'a', json_array(1, 2.5, 'x')), json_extract('{"a":{"b":[1,2,3]}}', '$.a.b[2]');
SELECT value FROM json_each('[3,1,2]') ORDER BY value;
SELECT printf('%.6f|%e|%08.3f|%d|%x', pi(), 12345.678, -3.14159, 9223372036854775807, 255);
SELECT sqrt(2), exp(1), ln(10), pow(2, 0.5), sin(1), atan2(1, 2), ceil(-1.5), floor(2.5);
SELECT 1e308 * 10, -1e308 * 10, 0.1 + 0.2, 1 / 3.0, 7 / 2, 7 % 3, -7 / 2, cast(9.99 AS INTEGER);
SELECT julianday('2000-01-01 12:00:00'), strftime('%Y-%j %H:%M:%f', '2023-12-31 23:59:59.123'), date('2024-02-28', '+1 day', 'start of month', '+1 month', '-1 day');
SELECT upper('abcß'), length('héllo'), hex('hé'), substr('hello world', -5, 3), replace('aaa', 'a', 'bb'), instr('banana', 'nan'), trim('  x  ') || '|';
SELECT typeof(1), typeof(1.0), typeof('1'), typeof(x'01'), typeof(NULL), 1 = 1.0, '1' = 1, 10 > '9';
SELECT group_concat(name, ',') FROM (SELECT name FROM dept ORDER BY name DESC);
SELECT total(salary) > 0, count(DISTINCT dept), quote(zeroblob(3)), randomblob(0) IS NOT NULL FROM emp;
UPDATE emp SET salary = salary * 1.1 WHERE dept = 2;
DELETE FROM emp WHERE id > 190;
SELECT count(*), round(sum(salary), 2) FROM emp;
BEGIN; INSERT INTO dept(name) VALUES ('tmp'); ROLLBACK;
SELECT count(*) FROM dept;
INSERT OR IGNORE INTO dept(name) VALUES ('eng');
SELECT changes();
PRAGMA integrity_check;
.mode csv
.headers on
SELECT id, name, salary FROM emp WHERE id IN (1, 2, 3);
.mode line
SELECT * FROM dept WHERE id = 2;
.mode list
.headers off
CREATE TABLE small(a, b);
INSERT INTO small VALUES (1, 'x''y'), (2.5, NULL), (x'00ff', 'z');
.dump small
