-- The nginx side: GET of the static file, with a non-2xx count and percentiles like the others.
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
require "common"
