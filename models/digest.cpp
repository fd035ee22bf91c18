#include "digest.h"

#include <openssl/evp.h>

#include <stdexcept>

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

void Sha256::reset() {
    if (EVP_DigestInit_ex(context_->ctx, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 is not available");
}

void Sha256::addData(QByteArrayView bytes) {
    EVP_DigestUpdate(context_->ctx, bytes.data(), static_cast<size_t>(bytes.size()));
}

QByteArray Sha256::result() {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    EVP_DigestFinal_ex(context_->ctx, out, &size);
    return QByteArray(reinterpret_cast<const char*>(out), static_cast<qsizetype>(size));
}

}  // namespace idem
