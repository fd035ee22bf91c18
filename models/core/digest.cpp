#include "digest.h"

#include <openssl/evp.h>

#include <new>

namespace idem {

struct Sha256::Context {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    ~Context() { EVP_MD_CTX_free(ctx); }
};

Sha256::Sha256() : context_(std::make_unique<Context>()) {
    if (!context_->ctx)
        throw std::bad_alloc();
    reset();
}

Sha256::~Sha256() = default;

// OpenSSL's digest fails only when it cannot allocate (SHA-256 is built
// in): an allocation failure, as Qt's containers report theirs, never a
// digest that silently differs.
void Sha256::reset() {
    if (EVP_DigestInit_ex(context_->ctx, EVP_sha256(), nullptr) != 1)
        throw std::bad_alloc();
}

void Sha256::addData(QByteArrayView bytes) {
    if (EVP_DigestUpdate(context_->ctx, bytes.data(), static_cast<size_t>(bytes.size())) != 1)
        throw std::bad_alloc();
}

QByteArray Sha256::result() {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_DigestFinal_ex(context_->ctx, out, &size) != 1)
        throw std::bad_alloc();
    return QByteArray(reinterpret_cast<const char*>(out), static_cast<qsizetype>(size));
}

}  // namespace idem
