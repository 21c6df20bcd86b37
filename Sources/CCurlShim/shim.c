#include "CCurlShim.h"

CURLcode wf_curl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
CURLcode wf_curl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
CURLcode wf_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
CURLcode wf_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
CURLcode wf_curl_setopt_callback(CURL *h, CURLoption o, wf_curl_data_callback v) { return curl_easy_setopt(h, o, v); }
CURLcode wf_curl_setopt_progress_callback(CURL *h, wf_curl_progress_callback v, void *userdata) {
    CURLcode code = curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, v);
    if (code == CURLE_OK) code = curl_easy_setopt(h, CURLOPT_XFERINFODATA, userdata);
    if (code == CURLE_OK) code = curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    return code;
}
CURLcode wf_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }

const CURLoption WF_CURLOPT_URL = CURLOPT_URL;
const CURLoption WF_CURLOPT_CUSTOMREQUEST = CURLOPT_CUSTOMREQUEST;
const CURLoption WF_CURLOPT_HTTPHEADER = CURLOPT_HTTPHEADER;
const CURLoption WF_CURLOPT_NOBODY = CURLOPT_NOBODY;
const CURLoption WF_CURLOPT_UPLOAD = CURLOPT_UPLOAD;
const CURLoption WF_CURLOPT_POST = CURLOPT_POST;
const CURLoption WF_CURLOPT_POSTFIELDSIZE_LARGE = CURLOPT_POSTFIELDSIZE_LARGE;
const CURLoption WF_CURLOPT_INFILESIZE_LARGE = CURLOPT_INFILESIZE_LARGE;
const CURLoption WF_CURLOPT_READFUNCTION = CURLOPT_READFUNCTION;
const CURLoption WF_CURLOPT_READDATA = CURLOPT_READDATA;
const CURLoption WF_CURLOPT_WRITEFUNCTION = CURLOPT_WRITEFUNCTION;
const CURLoption WF_CURLOPT_WRITEDATA = CURLOPT_WRITEDATA;
const CURLoption WF_CURLOPT_HEADERFUNCTION = CURLOPT_HEADERFUNCTION;
const CURLoption WF_CURLOPT_HEADERDATA = CURLOPT_HEADERDATA;
const CURLoption WF_CURLOPT_TIMEOUT_MS = CURLOPT_TIMEOUT_MS;
const CURLoption WF_CURLOPT_CONNECTTIMEOUT_MS = CURLOPT_CONNECTTIMEOUT_MS;
const CURLoption WF_CURLOPT_EXPECT_100_TIMEOUT_MS = CURLOPT_EXPECT_100_TIMEOUT_MS;
const CURLoption WF_CURLOPT_HTTP_VERSION = CURLOPT_HTTP_VERSION;
const CURLoption WF_CURLOPT_NOSIGNAL = CURLOPT_NOSIGNAL;
const CURLoption WF_CURLOPT_FORBID_REUSE = CURLOPT_FORBID_REUSE;
const CURLoption WF_CURLOPT_HTTPGET = CURLOPT_HTTPGET;
const CURLoption WF_CURLOPT_PROXY = CURLOPT_PROXY;
const CURLoption WF_CURLOPT_TCP_NODELAY = CURLOPT_TCP_NODELAY;
const CURLoption WF_CURLOPT_ACCEPT_ENCODING = CURLOPT_ACCEPT_ENCODING;
const CURLINFO WF_CURLINFO_RESPONSE_CODE = CURLINFO_RESPONSE_CODE;
const CURLINFO WF_CURLINFO_NUM_CONNECTS = CURLINFO_NUM_CONNECTS;
const CURLINFO WF_CURLINFO_LOCAL_PORT = CURLINFO_LOCAL_PORT;
const long WF_CURL_HTTP_VERSION_1_0 = CURL_HTTP_VERSION_1_0;
const long WF_CURL_HTTP_VERSION_1_1 = CURL_HTTP_VERSION_1_1;
const size_t WF_CURL_READFUNC_ABORT = CURL_READFUNC_ABORT;
