import TrellisSQLite

extension Database {
    /// Sets up a connection of ``Configuration/defensive``, as SQLite's
    /// "Defense Against The Dark Arts" advises for files of unknown origin.
    func enterDefensiveMode(_ connection: SQLiteConnection) throws {
        for (option, value, name) in [
            (SQLITE_DBCONFIG_DEFENSIVE, CInt(1), "SQLITE_DBCONFIG_DEFENSIVE"),
            (SQLITE_DBCONFIG_TRUSTED_SCHEMA, CInt(0), "SQLITE_DBCONFIG_TRUSTED_SCHEMA"),
        ] {
            // An SQLite too old to know the option would trust the file:
            // the connection is not opened.
            let code = trellis_sqlite_db_config_int(connection, option, value)
            guard code == SQLITE_OK else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: "the SQLite library can not open the file defensively: \(name) failed")
            }
        }
        // A damaged cell is reported before it is read past its end, and
        // a corrupt file is never mapped in memory, where a bad read
        // would crash rather than fail.
        try execute(sql: "PRAGMA cell_size_check = ON; PRAGMA mmap_size = 0")
    }
}
