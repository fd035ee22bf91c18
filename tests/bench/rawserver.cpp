// The yardstick for a live run's speed (SPEC section 8, "Speed"): the SQL
// statements of a run on a server (as tracescript.py extracted them from its
// trace), sent with plain libpq or libmariadb over the same socket, one
// blocking call after another on the same connections, and nothing else: no
// stepping, no lock observer, no recorded tables. Its database's life is the
// run's with --connect: a database of its own, created first and dropped at
// the end (on PostgreSQL with a schema of the same name that each connection
// works in).
//
// Usage: rawserver postgres SOCKET_FOLDER USER SCRIPT
//        rawserver mariadb SOCKET_FILE USER SCRIPT
// The password, if any, comes from PGPASSWORD or MYSQL_PWD. SCRIPT is
// rawreplay's format (rawreplay.cpp); statements write `?` for a bound value.
#include <libpq-fe.h>
#include <mysql.h>

#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace {

std::string unescape(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '\\' || i + 1 == s.size()) {
            out += s[i];
            continue;
        }
        const char c = s[++i];
        out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
    }
    return out;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        const std::size_t at = s.find(sep, start);
        parts.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
        if (at == std::string::npos)
            return parts;
        start = at + 1;
    }
}

struct Statement {
    int connection = 0;
    std::string sql;
    std::vector<std::string> params;  // typed as in rawreplay: i, d, s, n
    bool close = false;
};

std::vector<Statement> readScript(const char* path) {
    std::ifstream in(path);
    if (!in) {
        std::cerr << "rawserver: cannot read " << path << "\n";
        std::exit(2);
    }
    std::vector<Statement> script;
    std::string line;
    while (std::getline(in, line)) {
        const std::vector<std::string> fields = split(line, '\t');
        Statement s;
        s.connection = std::atoi(fields.at(0).c_str());
        s.sql = unescape(fields.at(1));
        if (fields.size() > 2 && !fields[2].empty()) {
            for (const std::string& p : split(fields[2], '\x1f')) s.params.push_back(unescape(p));
        }
        s.close = fields.size() > 3 && fields[3] == "close";
        script.push_back(std::move(s));
    }
    return script;
}

// PostgreSQL numbers its placeholders; a `?` inside a literal is text.
std::string numbered(const std::string& sql) {
    std::string out;
    bool quoted = false;
    int n = 0;
    for (char c : sql) {
        if (c == '\'')
            quoted = !quoted;
        if (c == '?' && !quoted)
            out += '$' + std::to_string(++n);
        else
            out += c;
    }
    return out;
}

int runPostgres(const std::string& socket, const std::string& user,
                const std::vector<Statement>& script, const std::string& database) {
    auto open = [&](const std::string& db) {
        const char* keys[] = {"host", "user", "dbname", nullptr};
        const char* values[] = {socket.c_str(), user.c_str(), db.c_str(), nullptr};
        PGconn* c = PQconnectdbParams(keys, values, 0);
        if (PQstatus(c) != CONNECTION_OK) {
            std::cerr << "rawserver: " << PQerrorMessage(c);
            std::exit(1);
        }
        PQsetNoticeProcessor(
            c, [](void*, const char*) {}, nullptr);
        return c;
    };
    // As `idemlab run --connect` does on PostgreSQL: a database, a schema of
    // the same name in it, and each connection's search_path set to it.
    PGconn* admin = open("postgres");
    PQclear(PQexec(admin, ("CREATE DATABASE " + database).c_str()));
    PGconn* owner = open(database);
    PQclear(PQexec(owner, ("CREATE SCHEMA " + database).c_str()));
    PQfinish(owner);
    std::map<int, PGconn*> connections;
    long errors = 0;
    for (const Statement& s : script) {
        PGconn*& c = connections[s.connection];
        if (!c) {
            c = open(database);
            PQclear(PQexec(c, ("SET search_path TO " + database).c_str()));
        }
        std::vector<std::string> values;
        std::vector<const char*> pointers;
        values.reserve(s.params.size());
        for (const std::string& p : s.params) {
            values.push_back(p.substr(1));
            pointers.push_back(p[0] == 'n' ? nullptr : values.back().c_str());
        }
        PGresult* r = PQexecParams(c, numbered(s.sql).c_str(), int(pointers.size()), nullptr,
                                   pointers.data(), nullptr, nullptr, 0);
        const ExecStatusType status = PQresultStatus(r);
        errors += status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK;
        PQclear(r);
        if (s.close) {
            PQfinish(c);
            c = nullptr;
        }
    }
    for (auto& [id, c] : connections) {
        if (c)
            PQfinish(c);
    }
    PQclear(PQexec(admin, ("DROP DATABASE " + database).c_str()));
    PQfinish(admin);
    std::printf("%zu statements, %ld refused by the server\n", script.size(), errors);
    return 0;
}

int runMariaDb(const std::string& socket, const std::string& user,
               const std::vector<Statement>& script, const std::string& database) {
    const char* password = std::getenv("MYSQL_PWD");
    auto open = [&](const char* db) {
        MYSQL* m = mysql_init(nullptr);
        mysql_options(m, MYSQL_SET_CHARSET_NAME, "utf8mb4");
        if (!mysql_real_connect(m, "localhost", user.c_str(), password, db, 0, socket.c_str(), 0)) {
            std::cerr << "rawserver: " << mysql_error(m) << "\n";
            std::exit(1);
        }
        return m;
    };
    auto query = [](MYSQL* m, const std::string& sql) {
        const bool failed = mysql_real_query(m, sql.data(), sql.size()) != 0;
        if (MYSQL_RES* rows = mysql_store_result(m))
            mysql_free_result(rows);
        return !failed;
    };
    MYSQL* admin = open(nullptr);
    query(admin, "CREATE DATABASE " + database);
    std::map<int, MYSQL*> connections;
    long errors = 0;
    for (const Statement& s : script) {
        MYSQL*& m = connections[s.connection];
        if (!m)
            m = open(database.c_str());
        // The values in the text, escaped by the client, as a text query has them.
        std::string sql;
        std::size_t next = 0;
        bool quoted = false;
        for (char c : s.sql) {
            if (c == '\'')
                quoted = !quoted;
            if (c != '?' || quoted || next >= s.params.size()) {
                sql += c;
                continue;
            }
            const std::string& p = s.params[next++];
            if (p[0] == 'n') {
                sql += "NULL";
            } else if (p[0] == 's') {
                std::string escaped(2 * p.size() + 1, '\0');
                escaped.resize(
                    mysql_real_escape_string(m, escaped.data(), p.data() + 1, p.size() - 1));
                sql += '\'' + escaped + '\'';
            } else {
                sql += p.substr(1);
            }
        }
        errors += !query(m, sql);
        if (s.close) {
            mysql_close(m);
            m = nullptr;
        }
    }
    for (auto& [id, m] : connections) {
        if (m)
            mysql_close(m);
    }
    query(admin, "DROP DATABASE " + database);
    mysql_close(admin);
    std::printf("%zu statements, %ld refused by the server\n", script.size(), errors);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 5) {
        std::cerr << "usage: rawserver postgres|mariadb SOCKET USER SCRIPT\n";
        return 2;
    }
    const std::string kind = argv[1];
    const std::vector<Statement> script = readScript(argv[4]);
    const std::string database = "rawserver_" + std::to_string(getpid());
    if (kind == "postgres")
        return runPostgres(argv[2], argv[3], script, database);
    if (kind == "mariadb")
        return runMariaDb(argv[2], argv[3], script, database);
    std::cerr << "rawserver: postgres or mariadb, not " << kind << "\n";
    return 2;
}
