// The SHA-256 digest of a trace (its events and summary as written), computed
// as the bytes stream past. OpenSSL's implementation: it uses the processor's
// SHA instructions where there are some, so a traced run does not spend a
// third of its time hashing.
#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <memory>

namespace idem {

class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void reset();
    void addData(QByteArrayView bytes);
    QByteArray result();  // the 32 bytes; call reset() before adding more

private:
    struct Context;
    std::unique_ptr<Context> context_;
};

}  // namespace idem
