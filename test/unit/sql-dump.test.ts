import { ValidationError } from '../../src/errors';
import { dumpDialect, readDump } from '../../src/input/sql-dump';

/** The statements, each insert's row places listed (`rowAt` of every row). */
const read = (text: string, dialect: 'mysql' | 'hsqldb') =>
  [...readDump(text.split('\n'), 'd.sql', dialect)].map((s) =>
    s.kind === 'insert' ? { ...s, rowAt: s.rows.map((_, k) => s.rowAt(k)) } : s,
  );
type Read = ReturnType<typeof read>;
const failure = (text: string, dialect: 'mysql' | 'hsqldb') => {
  try {
    read(text, dialect);
  } catch (err) {
    if (err instanceof ValidationError) return err.message;
    throw err;
  }
  return null;
};

describe('readDump: the statements of a dump that hold data', () => {
  test('a mysqldump: comments, SET and LOCK passed over, a CREATE TABLE over many lines, an extended insert', () => {
    const dump = [
      '-- MariaDB dump 10.19  Distrib 10.11.6-MariaDB',
      '/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;',
      'SET NAMES utf8mb4;',
      'DROP TABLE IF EXISTS `restcomm_recordings`;',
      'CREATE TABLE `restcomm_recordings` (',
      '  `sid` varchar(34) NOT NULL,',
      '  `duration` double NOT NULL,',
      "  `file_uri` varchar(1000) DEFAULT NULL COMMENT 'a, b',",
      '  PRIMARY KEY (`sid`),',
      '  KEY `account` (`account_sid`,`sid`)',
      ') ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;',
      'LOCK TABLES `restcomm_recordings` WRITE;',
      "INSERT INTO `restcomm_recordings` VALUES ('RE1',12.5,'it\\'s \\\\ a \\n line'),('RE2',-3,NULL),('RE3',1e3,'two '' quotes');",
      'UNLOCK TABLES;',
    ].join('\n');
    expect(dumpDialect(dump.split('\n').slice(0, 5))).toBe('mysql');
    expect(read(dump, 'mysql')).toEqual<Read>([
      {
        kind: 'create',
        table: 'restcomm_recordings',
        columns: ['sid', 'duration', 'file_uri'],
        declared: [
          { name: 'sid', max: 34, notNull: true },
          { name: 'duration', max: undefined, notNull: true },
          { name: 'file_uri', max: 1000, notNull: false },
        ],
        line: 5,
      },
      {
        kind: 'insert',
        table: 'restcomm_recordings',
        columns: null,
        rows: [
          ['RE1', 12.5, "it's \\ a \n line"],
          ['RE2', -3, null],
          ['RE3', 1000, "two ' quotes"],
        ],
        line: 13,
        rowAt: ['d.sql:13:42', 'd.sql:13:76', 'd.sql:13:92'],
      },
    ]);
  });

  test('an HSQLDB script: a statement a line, quoted names, doubled quotes, \\u escapes, TRUE and FALSE, no backslash escapes', () => {
    const script = [
      'CREATE SCHEMA PUBLIC AUTHORIZATION DBA',
      'CREATE MEMORY TABLE "restcomm_accounts"("sid" VARCHAR(34) NOT NULL PRIMARY KEY,"friendly_name" VARCHAR(64) NOT NULL,"status" VARCHAR(16) NOT NULL)',
      'SET WRITE_DELAY 20',
      "INSERT INTO \"restcomm_accounts\" VALUES('ACae','Caf\\u00e9 O''Brien','active')",
      "INSERT INTO \"restcomm_flags\" VALUES('x',TRUE,FALSE,'C:\\path')",
    ].join('\n');
    expect(dumpDialect(script.split('\n'))).toBe('hsqldb');
    expect(read(script, 'hsqldb')).toEqual<Read>([
      {
        kind: 'create',
        table: 'restcomm_accounts',
        columns: ['sid', 'friendly_name', 'status'],
        declared: [
          { name: 'sid', max: 34, notNull: true },
          { name: 'friendly_name', max: 64, notNull: true },
          { name: 'status', max: 16, notNull: true },
        ],
        line: 2,
      },
      {
        kind: 'insert',
        table: 'restcomm_accounts',
        columns: null,
        rows: [['ACae', "Café O'Brien", 'active']],
        line: 4,
        rowAt: ['d.sql:4:39'],
      },
      {
        kind: 'insert',
        table: 'restcomm_flags',
        columns: null,
        rows: [['x', true, false, 'C:\\path']],
        line: 5,
        rowAt: ['d.sql:5:36'],
      },
    ]);
  });

  test('an insert that names its columns keeps their order', () => {
    expect(read("INSERT INTO t (`b`, `a`) VALUES (1, 'x');", 'mysql')).toEqual([
      { kind: 'insert', table: 't', columns: ['b', 'a'], rows: [[1, 'x']], line: 1, rowAt: ['d.sql:1:33'] },
    ]);
  });

  test.each([
    [
      'an unterminated string',
      "INSERT INTO t VALUES ('abc",
      'mysql',
      'd.sql:1:1: the file ends inside the statement begun on line 1',
    ],
    [
      'an unterminated string in a script',
      "INSERT INTO t VALUES('abc",
      'hsqldb',
      'd.sql:1:22: the string begun here is not closed',
    ],
    ['a word where a value goes', 'INSERT INTO t VALUES (1, nope);', 'mysql', 'd.sql:1:26: unexpected "nope);"'],
    ['rows not separated', 'INSERT INTO t VALUES (1) (2);', 'mysql', 'd.sql:1:26: unexpected "(2);"'],
    ['a row cut short in a script', 'INSERT INTO t VALUES(1,', 'hsqldb', 'd.sql:1:24: the statement ends too soon'],
    [
      'a truncated file',
      'INSERT INTO t VALUES (1),\n(2',
      'mysql',
      'd.sql:2:1: the file ends inside the statement begun on line 1',
    ],
    ['a statement it cannot read', 'INSERT INTO t SELECT 1;', 'mysql', 'd.sql:1:1: unexpected "INSERT INTO t SELECT"'],
  ] as const)('%s: a 400-style error naming the file, line and column', (_name, text, dialect, message) => {
    expect(failure(text, dialect)).toBe(message);
  });

  test('a line past any statement of a real dump is refused before it is read', () => {
    const huge = `INSERT INTO t VALUES ('${'x'.repeat(64 * 2 ** 20)}');`;
    expect(failure(huge, 'mysql')).toMatch(/^d\.sql:1:\d+: the line is longer than any statement of a dump/);
  });
});
