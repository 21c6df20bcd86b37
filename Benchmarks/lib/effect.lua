-- POST /v1/sessions/{id}/routes {"route":"emailTodos"} on a random session of the file given after
-- `--` (sessions on the profile tab): a trigger whose effect (the sample app's mail service, in
-- memory) answers at once, so the answer holds both steps.
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
require "common"

local requests = {}

function init(args)
    math.randomseed(os.time() + (tonumber(tostring({}):match("0x(%x+)"), 16) or 0))
    for _, s in ipairs(read_sessions(args[1])) do
        local headers = { ["Authorization"] = "Bearer " .. s.token, ["Content-Type"] = "application/json" }
        requests[#requests + 1] = wrk.format("POST", "/v1/sessions/" .. s.id .. "/routes", headers, '{"route":"emailTodos"}')
    end
end

function request()
    return requests[math.random(#requests)]
end
