// The yardstick for the engine's speed: replays the SQL statements of a run
// (as tracescript.py extracted them from a trace) with plain libsqlite3 — the
// same connections, pragmas and prepared statements, in the same order — and
// nothing else. `idemlab run` against this is the engine's own overhead.
//
// Usage: rawreplay SCRIPT DATABASE
// SCRIPT: one statement per line: connection, tab, SQL, tab, parameters,
// tab, "close" when the connection closes after it (a crash). Text fields use
// \n, \t and \\ escapes; parameters are separated by \x1f and typed:
// i<integer>, d<double>, s<text>, n (NULL).
#include <sqlite3.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
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

struct Connection {
    sqlite3* db = nullptr;
    std::unordered_map<std::string, sqlite3_stmt*> statements;

    ~Connection() {
        for (auto& [sql, s] : statements) sqlite3_finalize(s);
        sqlite3_close(db);
    }
};

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: rawreplay SCRIPT DATABASE\n";
        return 2;
    }
    std::remove(argv[2]);
    std::remove((std::string(argv[2]) + "-wal").c_str());
    std::remove((std::string(argv[2]) + "-shm").c_str());
    std::ifstream in(argv[1]);
    if (!in) {
        std::cerr << "rawreplay: cannot read " << argv[1] << "\n";
        return 1;
    }
    std::map<int, std::unique_ptr<Connection>> connections;
    std::string line;
    long long statements = 0, rows = 0;
    while (std::getline(in, line)) {
        const std::vector<std::string> f = split(line, '\t');
        if (f.size() < 3)
            continue;
        const int id = std::atoi(f[0].c_str());
        auto& c = connections[id];
        if (!c) {
            c = std::make_unique<Connection>();
            sqlite3_open_v2(argv[2], &c->db,
                            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                            nullptr);
            sqlite3_extended_result_codes(c->db, 1);
            sqlite3_busy_timeout(c->db, 0);
            sqlite3_exec(c->db, "PRAGMA synchronous = OFF", nullptr, nullptr, nullptr);
        }
        const std::string sql = unescape(f[1]);
        sqlite3_stmt*& s = c->statements[sql];
        if (!s && sqlite3_prepare_v3(c->db, sql.c_str(), int(sql.size()), SQLITE_PREPARE_PERSISTENT,
                                     &s, nullptr) != SQLITE_OK) {
            std::cerr << "rawreplay: " << sqlite3_errmsg(c->db) << "\n";
            return 1;
        }
        int index = 1;
        for (const std::string& p :
             f[2].empty() ? std::vector<std::string>{} : split(f[2], '\x1f')) {
            switch (p.empty() ? 'n' : p[0]) {
                case 'i':
                    sqlite3_bind_int64(s, index, std::atoll(p.c_str() + 1));
                    break;
                case 'd':
                    sqlite3_bind_double(s, index, std::atof(p.c_str() + 1));
                    break;
                case 's': {
                    const std::string text = unescape(p.substr(1));
                    sqlite3_bind_text(s, index, text.c_str(), int(text.size()), SQLITE_TRANSIENT);
                    break;
                }
                default:
                    sqlite3_bind_null(s, index);
            }
            ++index;
        }
        const int columns = sqlite3_column_count(s);
        while (sqlite3_step(s) == SQLITE_ROW) {
            // Read every value, as the engine does.
            for (int col = 0; col < columns; ++col) {
                if (sqlite3_column_type(s, col) == SQLITE_TEXT)
                    sqlite3_column_text(s, col);
                else
                    sqlite3_column_int64(s, col);
            }
            ++rows;
        }
        sqlite3_reset(s);
        ++statements;
        if (f.size() > 3 && f[3] == "close")
            connections.erase(id);
    }
    connections.clear();
    std::printf("{\"statements\":%lld,\"rows\":%lld}\n", statements, rows);
    return 0;
}
