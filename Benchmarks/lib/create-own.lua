-- POST /v1/sessions signed in by the benchmarks' identity provider (a JWT from the file that
-- WAYFINDER_BENCH_TOKENS names, lib/jwt.py tokens; one user per line, taken in turn), so no two
-- sessions start alike: each holds its own first state (a session of a verified user is never
-- shared with another's). Optional argument after `--`: stop after this many responses.
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
require "common"

local tokens = {}
local counter = 0

function init(args)
    limit = tonumber(args[1] or "0")
    local path = os.getenv("WAYFINDER_BENCH_TOKENS") or error("WAYFINDER_BENCH_TOKENS names no file of tokens")
    for line in io.lines(path) do tokens[#tokens + 1] = line end
    if #tokens == 0 then error("no tokens in " .. path) end
end

function request()
    counter = counter + 1
    local token = tokens[(counter - 1) % #tokens + 1]
    return wrk.format("POST", "/v1/sessions",
        { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }, '{"context":{"onboarded":true}}')
end
