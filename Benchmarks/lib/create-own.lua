-- POST /v1/sessions with a signed-in context naming a different user on every request, so no
-- two sessions start alike: each holds its own first state (the server shares the first state of
-- sessions started alike). Optional argument after `--`: stop after this many responses.
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
require "common"

local counter = 0

function init(args)
    limit = tonumber(args[1] or "0")
end

function request()
    counter = counter + 1
    local body = '{"context":{"onboarded":true,"authenticated":true,"user":"bench' .. counter .. '@example.com"}}'
    return wrk.format("POST", "/v1/sessions", { ["Content-Type"] = "application/json" }, body)
end
