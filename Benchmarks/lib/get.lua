-- GET /v1/sessions/{id} on a random session of the file given after `--`; a second argument is
-- sent as Accept-Encoding (`gzip`: the answers come compressed).
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
require "common"

local requests = {}

function init(args)
    math.randomseed(os.time() + (tonumber(tostring({}):match("0x(%x+)"), 16) or 0))
    for _, s in ipairs(read_sessions(args[1])) do
        local headers = { ["Authorization"] = "Bearer " .. s.token }
        if args[2] then headers["Accept-Encoding"] = args[2] end
        requests[#requests + 1] = wrk.format("GET", "/v1/sessions/" .. s.id, headers)
    end
end

function request()
    return requests[math.random(#requests)]
end
