#ifndef CCURLSHIM_H
#define CCURLSHIM_H
// Non-variadic wrappers: Swift cannot call C variadic functions such as curl_easy_setopt.
#include <curl/curl.h>

typedef size_t (*wf_curl_data_callback)(char *ptr, size_t size, size_t nmemb, void *userdata);
// CURLOPT_XFERINFOFUNCTION's type: called about once a second even while no data moves; a
// non-zero answer aborts the transfer.
typedef int (*wf_curl_progress_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);

CURLcode wf_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode wf_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode wf_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode wf_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode wf_curl_setopt_callback(CURL *handle, CURLoption option, wf_curl_data_callback value);
CURLcode wf_curl_setopt_progress_callback(CURL *handle, wf_curl_progress_callback value, void *userdata);
CURLcode wf_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);

// Option constants re-exported as plain values (some are macros Swift does not import).
extern const CURLoption WF_CURLOPT_URL;
extern const CURLoption WF_CURLOPT_CUSTOMREQUEST;
extern const CURLoption WF_CURLOPT_HTTPHEADER;
extern const CURLoption WF_CURLOPT_NOBODY;
extern const CURLoption WF_CURLOPT_UPLOAD;
extern const CURLoption WF_CURLOPT_POST;
extern const CURLoption WF_CURLOPT_POSTFIELDSIZE_LARGE;
extern const CURLoption WF_CURLOPT_INFILESIZE_LARGE;
extern const CURLoption WF_CURLOPT_READFUNCTION;
extern const CURLoption WF_CURLOPT_READDATA;
extern const CURLoption WF_CURLOPT_WRITEFUNCTION;
extern const CURLoption WF_CURLOPT_WRITEDATA;
extern const CURLoption WF_CURLOPT_HEADERFUNCTION;
extern const CURLoption WF_CURLOPT_HEADERDATA;
extern const CURLoption WF_CURLOPT_TIMEOUT_MS;
extern const CURLoption WF_CURLOPT_CONNECTTIMEOUT_MS;
extern const CURLoption WF_CURLOPT_EXPECT_100_TIMEOUT_MS;
extern const CURLoption WF_CURLOPT_HTTP_VERSION;
extern const CURLoption WF_CURLOPT_NOSIGNAL;
extern const CURLoption WF_CURLOPT_FORBID_REUSE;
extern const CURLoption WF_CURLOPT_HTTPGET;
extern const CURLoption WF_CURLOPT_PROXY;
extern const CURLoption WF_CURLOPT_TCP_NODELAY;
extern const CURLoption WF_CURLOPT_ACCEPT_ENCODING;
extern const CURLINFO WF_CURLINFO_RESPONSE_CODE;
extern const CURLINFO WF_CURLINFO_NUM_CONNECTS;
extern const CURLINFO WF_CURLINFO_LOCAL_PORT;
extern const long WF_CURL_HTTP_VERSION_1_0;
extern const long WF_CURL_HTTP_VERSION_1_1;
extern const size_t WF_CURL_READFUNC_ABORT;
#endif
