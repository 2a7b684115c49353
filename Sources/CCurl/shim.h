#ifndef SCREENPLAY_CCURL_SHIM_H
#define SCREENPLAY_CCURL_SHIM_H

// libcurl (Debian's libcurl4-openssl-dev) for `play URL`, and OpenSSL's
// libcrypto (libssl-dev, which libcurl's TLS already loads) for SHA-256.
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot
// call: one typed wrapper per argument kind. Only HTTPFetcher.swift and
// FileDigest.swift import this module.
#include <curl/curl.h>
#include <openssl/evp.h>

typedef size_t (*sp_curl_data_callback)(char *data, size_t size, size_t count, void *user);
typedef int (*sp_curl_progress_callback)(void *user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                                         curl_off_t ulnow);

static inline CURLcode sp_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sp_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sp_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sp_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sp_curl_set_headers(CURL *handle, struct curl_slist *headers) {
    return curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}

static inline CURLcode sp_curl_set_write_function(CURL *handle, sp_curl_data_callback function) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, function);
}

static inline CURLcode sp_curl_set_header_function(CURL *handle, sp_curl_data_callback function) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, function);
}

static inline CURLcode sp_curl_set_progress_function(CURL *handle, sp_curl_progress_callback function) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, function);
}

static inline long sp_curl_response_code(CURL *handle) {
    long code = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

// The system error of the last failed connect (0: none kept), such as
// EAFNOSUPPORT from a sandbox that refuses IP sockets.
static inline long sp_curl_os_errno(CURL *handle) {
    long error = 0;
    curl_easy_getinfo(handle, CURLINFO_OS_ERRNO, &error);
    return error;
}

static inline const char *sp_curl_effective_url(CURL *handle) {
    char *url = NULL;
    curl_easy_getinfo(handle, CURLINFO_EFFECTIVE_URL, &url);
    return url;
}

#endif
