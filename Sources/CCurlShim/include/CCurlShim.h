#ifndef CCURLSHIM_H
#define CCURLSHIM_H
#include <curl/curl.h>
#endif
