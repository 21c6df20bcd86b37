/// The Lua scripts that make each `RedisStore` change one atomic step in Redis.
///
/// Redis runs a script alone (no other command interleaves), so a compare-and-set, the writes of
/// its idempotency record, its index entries (pending effects too: a session is filed in `fx`
/// while its state holds them) and its notification are one step for every instance sharing
/// the server. A single Redis keeps each user's set of sessions (`wf:u:{user}`) in the same
/// step too (`USER_SETS`); in a cluster that set is in the user's slot, not the session's, so
/// the scripts leave it alone and tell the store what to change there (see `RedisStore`).
/// A change is published only if an instance watches the session
/// (`RedisWatches`). The key layout is documented on `RedisStore`: a session's keys
/// are declared in `KEYS` (they share the session's slot, so a cluster runs the script on the
/// node that holds them); keys derived inside a script (another record of the same session,
/// sessions found in the same slot's index) are in the same slot. `expire` and `count` run once
/// per node over the index keys of the slots it serves (a single Redis: the one pair).
///
/// What is the same for every call of a store (key prefix, channel, TTLs, bounds) is written into
/// the source (`Constants`), so a call sends, and Redis turns into Lua strings, only what varies;
/// each configuration's scripts thus have their own digests. The instance's origin (the name its
/// change messages carry) is not: it is new at every start, and Redis keeps every script loaded
/// until it restarts, so it would collect scripts with every deploy. It is every script's
/// `ARGV[1]`. Scripts are sent with `EVALSHA`; the first call, and a call answered `NOSCRIPT`
/// (Redis restarted, or another node), sends the source with `EVAL`, which loads it.
enum RedisScript: Int, CaseIterable, Sendable {
    case create, save, touch, delete, expire, idempotencyRecord, count, pendingEffects

    /// Every script's source for a store with `constants`, in `allCases` order.
    static func sources(_ constants: Constants) -> [String] {
        let c = constants
        let indexes = c.isCluster ? "KEYS[2], KEYS[3], KEYS[4]" : [c.prefix + "live", c.prefix + "irec", c.prefix + "fx"].map(literal).joined(separator: ", ")
        let prelude = """
            local P, CHANNEL, ORIGIN = \(literal(c.prefix)), \(literal(c.channel)), ARGV[1]
            local KEY_TTL, RECORD_TTL = '\(c.sessionKeyTTL)', '\(c.recordKeyTTL)'
            local JOURNAL_ENTRIES, JOURNAL_BYTES, RECORDS_KEPT = \(c.journalEntries), \(c.journalBytes), \(c.recordsKept)
            local ANSWER_BYTES = \(c.answerBytes)
            local USER_SETS = \(c.isCluster ? "false" : "true")
            """
        return allCases.map { script in
            var used = script.body
            var chosen: [String] = []
            for helper in helpers.reversed() where used.contains(helper.name + "(") {
                chosen.append(helper.source)
                used += helper.source
            }
            let locals = script == .save ? [prelude, "local LIVE, IREC, FX = " + indexes] : [prelude]
            return (locals + chosen.reversed() + [script.body]).joined(separator: "\n")
        }
    }

    /// Helpers shared by the scripts, in order (a helper uses only those before it). A script
    /// defines only those it uses: each is a closure made at every call, so the hot path
    /// (`save`) uses one only for its journal.
    private static let helpers: [(name: String, source: String)] = [
        ("skey", #"local function skey(id) return P .. 's:{' .. id .. '}' end"#),
        ("ikey", #"local function ikey(id) return P .. 'ik:{' .. id .. '}' end"#),
        ("rkey", #"local function rkey(id, key) return P .. 'i:{' .. id .. '}:' .. key end"#),
        ("jkey", #"local function jkey(id) return P .. 'j:{' .. id .. '}' end"#),
        ("ukey", #"local function ukey(user) return P .. 'u:{' .. user .. '}' end"#),
        ("userArgument", #"""
        -- A user argument: '' for none, else '+' and the user (so that an empty user is one).
        local function userArgument(value) if value == '' then return nil end return string.sub(value, 2) end
        """#),
        ("notify", #"""
        -- Publishes a change of session `id` if some instance watches it (has event streams or
        -- long polls on it: `wf:w:{id}` exists), so unwatched changes cost no message.
        local function notify(id, message)
          if redis.call('EXISTS', P .. 'w:{' .. id .. '}') == 1 then redis.call('PUBLISH', CHANNEL, message) end
        end
        """#),
        ("indexes", #"""
        -- The index triples (sessions by use, records by age, sessions with pending effects) named
        -- by ARGV[first...]: slot tags in a cluster, none for a single Redis (its one triple).
        local function indexes(first)
          if #ARGV < first then return {{P .. 'live', P .. 'irec', P .. 'fx'}} end
          local found = {}
          for i = first, #ARGV do
            local t = '{' .. ARGV[i] .. '}'
            found[#found + 1] = {P .. 'live:' .. t, P .. 'irec:' .. t, P .. 'fx:' .. t}
          end
          return found
        end
        """#),
        ("noteEffects", #"""
        -- Files or unfiles session `id` in `fx` when its 'fx' field moves from `was` to `now`.
        local function noteEffects(fx, id, was, now)
          if now == (was or '0') then return end
          if now == '1' then redis.call('SADD', fx, id) else redis.call('SREM', fx, id) end
        end
        """#),
        ("purge", #"""
        -- Deletes a session's hash, its idempotency records, index entries (its user's set too,
        -- if USER_SETS) and watchers (notify first); 1 if the hash existed, and its user (false
        -- for none).
        local function purge(id, live, irec, fx)
          local user = redis.call('HGET', skey(id), 'user')
          local existed = redis.call('DEL', skey(id))
          if user and USER_SETS then redis.call('SREM', ukey(user), id) end
          redis.call('DEL', P .. 'w:{' .. id .. '}')
          local index = ikey(id)
          for _, key in ipairs(redis.call('ZRANGE', index, 0, -1)) do
            redis.call('DEL', rkey(id, key))
            redis.call('ZREM', irec, id .. '\n' .. key)
          end
          redis.call('DEL', index)
          redis.call('DEL', jkey(id))
          redis.call('ZREM', live, id)
          redis.call('SREM', fx, id)
          return existed, user
        end
        """#),
        ("journal", #"""
        -- Appends `entry` ('<revision> <record length> <record><state>', `size` bytes of record and
        -- state; none if empty) to session `id`'s journal (a list in its slot), then drops the
        -- oldest while more than JOURNAL_ENTRIES are kept or they hold more than JOURNAL_BYTES
        -- bytes of record and state (never the newest). `jb` is the hash's byte count before;
        -- returns it after (the caller writes it with the hash), or nil without an entry. The
        -- list's Redis TTL is set when `refresh` (the session's `used` moves) or when it is new.
        local function journal(id, entry, size, jb, refresh)
          if not entry or entry == '' then return nil end
          local key = P .. 'j:{' .. id .. '}'
          local bytes = (jb or 0) + size
          local count = redis.call('RPUSH', key, entry)
          while count > 1 and (count > JOURNAL_ENTRIES or bytes > JOURNAL_BYTES) do
            local old = redis.call('LPOP', key)
            bytes = bytes - #old + string.find(old, ' ', string.find(old, ' ', 1, true) + 1, true)
            count = count - 1
          end
          if refresh or count == 1 then redis.call('PEXPIRE', key, KEY_TTL) end
          return bytes
        end
        """#),
    ]

    private var body: String {
        switch self {
        case .create:
            // KEYS: session, key index, live, irec, fx
            // ARGV: origin, id, rev, token, state, used, max (-1: unchecked), cutoff, reclaimLimit,
            //       fx ('1' if the state may hold pending effects, else '0'), user ('' or '+user')
            //       [, journal entry, its size]
            // -> {'ok', reclaimed ids...} | {'dup'} | {'limit', reclaimed ids...}
            return #"""
                local id = ARGV[2]
                if redis.call('EXISTS', KEYS[1]) == 1 then return {'dup'} end
                purge(id, KEYS[3], KEYS[4], KEYS[5]) -- leftovers of an earlier session with this id whose hash expired by TTL
                local reply = {'ok'}
                local max = tonumber(ARGV[7])
                if max >= 0 and redis.call('ZCARD', KEYS[3]) >= max then
                  local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', '(' .. ARGV[8], 'LIMIT', 0, tonumber(ARGV[9]))
                  for _, old in ipairs(expired) do
                    notify(old, old .. ' deleted ' .. ORIGIN)
                    purge(old, KEYS[3], KEYS[4], KEYS[5])
                    reply[#reply + 1] = old
                  end
                  if redis.call('ZCARD', KEYS[3]) >= max then
                    reply[1] = 'limit'
                    return reply
                  end
                end
                local fx = ARGV[10]
                local jb = journal(id, ARGV[12], ARGV[13], nil, true)
                if jb then
                  redis.call('HSET', KEYS[1], 'rev', ARGV[3], 'token', ARGV[4], 'state', ARGV[5], 'used', ARGV[6], 'fx', fx, 'jb', jb)
                else
                  redis.call('HSET', KEYS[1], 'rev', ARGV[3], 'token', ARGV[4], 'state', ARGV[5], 'used', ARGV[6], 'fx', fx)
                end
                local user = userArgument(ARGV[11])
                if user then
                  redis.call('HSET', KEYS[1], 'user', user)
                  if USER_SETS then redis.call('SADD', ukey(user), id) end
                end
                noteEffects(KEYS[5], id, '0', fx)
                redis.call('PEXPIRE', KEYS[1], KEY_TTL)
                redis.call('ZADD', KEYS[3], ARGV[6], id)
                return reply
                """#
        case .save:
            // KEYS: session [, live, irec, fx (a cluster: its slot's)] [, record]
            // ARGV: origin, id, expected, rev, token, state, used, fx ('1' if the state may hold pending
            //       effects, else '0'), user ('' or '+user') [, journal entry, its size [, key, record,
            //       createdAt, keyCutoff]]
            // -> {'ok', moved ('user': the user changed, else ''), answers dropped} | {'notfound'}
            //    | {'conflict', rev} | {'keytaken'}
            // An empty entry stands for none (an idempotency record without a journal entry).
            // A key whose record was created at or after keyCutoff is taken: nothing is written.
            // After adding a record, only the session's RECORDS_KEPT newest stay, with their answers
            // while the records' bytes sum to at most ANSWER_BYTES (newest first); an older one is
            // cut to its status, time and fingerprint, version byte 2 (see `RedisRecordCoding`).
            // `used` only moves forward; when it does not move (most saves: the API moves it at
            // most every touch interval), neither do the keys' Redis TTLs nor the index entry.
            // Numbers are compared by arithmetic, which converts each string once (`tonumber`
            // converts twice).
            return #"""
                local id = ARGV[2]
                local current = redis.call('HMGET', KEYS[1], 'rev', 'used', 'fx', 'jb', 'user')
                if not current[1] then return {'notfound'} end
                if current[1] ~= ARGV[3] then return {'conflict', current[1]} end
                local key = ARGV[12]
                local index = P .. 'ik:{' .. id .. '}'
                if key then
                  local created = redis.call('ZSCORE', index, key)
                  if created and created - ARGV[15] >= 0 then return {'keytaken'} end
                end
                local reply = {'ok', '', 0}
                local user, was = ARGV[9], current[5] or nil
                if user == '' then user = nil else user = string.sub(user, 2) end
                if user ~= was then
                  if user then redis.call('HSET', KEYS[1], 'user', user) else redis.call('HDEL', KEYS[1], 'user') end
                  if USER_SETS then
                    if was then redis.call('SREM', P .. 'u:{' .. was .. '}', id) end
                    if user then redis.call('SADD', P .. 'u:{' .. user .. '}', id) end
                  end
                  reply[2] = 'user'
                end
                local fx = ARGV[8]
                if fx ~= (current[3] or '0') then
                  if fx == '1' then redis.call('SADD', FX, id) else redis.call('SREM', FX, id) end
                end
                local moved = current[2] - ARGV[7] < 0
                local jb = journal(id, ARGV[10], ARGV[11], current[4], moved) or current[4]
                if jb then
                  redis.call('HSET', KEYS[1], 'rev', ARGV[4], 'token', ARGV[5], 'state', ARGV[6], 'fx', fx, 'jb', jb)
                else
                  redis.call('HSET', KEYS[1], 'rev', ARGV[4], 'token', ARGV[5], 'state', ARGV[6], 'fx', fx)
                end
                if moved then
                  redis.call('HSET', KEYS[1], 'used', ARGV[7])
                  redis.call('PEXPIRE', KEYS[1], KEY_TTL)
                  redis.call('PEXPIRE', index, KEY_TTL)
                  redis.call('ZADD', LIVE, ARGV[7], id)
                end
                if key then
                  redis.call('SET', KEYS[#KEYS], ARGV[13], 'PX', RECORD_TTL)
                  redis.call('ZADD', index, ARGV[14], key)
                  redis.call('ZADD', IREC, ARGV[14], id .. '\n' .. key)
                  local extra = redis.call('ZCARD', index) - RECORDS_KEPT
                  if extra > 0 then
                    for _, old in ipairs(redis.call('ZRANGE', index, 0, extra - 1)) do
                      redis.call('DEL', P .. 'i:{' .. id .. '}:' .. old)
                      redis.call('ZREM', IREC, id .. '\n' .. old)
                      redis.call('ZREM', index, old)
                    end
                  end
                  -- The record just stored first (others of one millisecond sort by name).
                  local total, order = 0, {key}
                  for _, kept in ipairs(redis.call('ZREVRANGE', index, 0, -1)) do
                    if kept ~= key then order[#order + 1] = kept end
                  end
                  for _, kept in ipairs(order) do
                    local rk = P .. 'i:{' .. id .. '}:' .. kept
                    total = total + redis.call('STRLEN', rk)
                    if total > ANSWER_BYTES and redis.call('GETRANGE', rk, 0, 0) == '\1' then
                      local r = redis.call('GET', rk)
                      local n = ((string.byte(r, 14) * 256 + string.byte(r, 15)) * 256 + string.byte(r, 16)) * 256 + string.byte(r, 17)
                      redis.call('SET', rk, '\2' .. string.sub(r, 2, 17 + n), 'KEEPTTL')
                      reply[3] = reply[3] + 1
                    end
                  end
                  redis.call('PEXPIRE', index, KEY_TTL)
                end
                if ARGV[4] ~= ARGV[3] and redis.call('EXISTS', P .. 'w:{' .. id .. '}') == 1 then
                  redis.call('PUBLISH', CHANNEL, id .. ' saved ' .. ARGV[4] .. ' ' .. ORIGIN)
                end
                return reply
                """#
        case .touch:
            // KEYS: session, key index, live. ARGV: origin, id, now -> 1 | 0 (absent)
            return #"""
                local used = redis.call('HGET', KEYS[1], 'used')
                if not used then return 0 end
                if tonumber(used) < tonumber(ARGV[3]) then
                  redis.call('HSET', KEYS[1], 'used', ARGV[3])
                  redis.call('ZADD', KEYS[3], ARGV[3], ARGV[2])
                end
                redis.call('PEXPIRE', KEYS[1], KEY_TTL)
                redis.call('PEXPIRE', KEYS[2], KEY_TTL)
                redis.call('PEXPIRE', jkey(ARGV[2]), KEY_TTL)
                return 1
                """#
        case .delete:
            // KEYS: session, key index, live, irec, fx. ARGV: origin, id [, expected]
            // -> 1 | 0 | {'conflict', rev} | {1, user} (a cluster: the deleted session's user, whose set
            //    the store updates)
            return #"""
                if ARGV[3] then
                  local current = redis.call('HGET', KEYS[1], 'rev')
                  if not current then return 0 end
                  if current ~= ARGV[3] then return {'conflict', current} end
                end
                if redis.call('EXISTS', KEYS[1]) == 1 then notify(ARGV[2], ARGV[2] .. ' deleted ' .. ORIGIN) end
                local existed, user = purge(ARGV[2], KEYS[3], KEYS[4], KEYS[5])
                if USER_SETS or not user then return existed end
                return {existed, user}
                """#
        case .expire:
            // No KEYS (one node's own index keys). ARGV: origin, sessionCutoff, recordCutoff, limit
            // [, slot tags...] -> {{expired ids...}, records removed, {id, user, ...}} (the last: in a
            // cluster, the expired sessions that had a user, whose sets the store updates)
            return #"""
                local limit = tonumber(ARGV[4])
                local expired = {}
                local records = 0
                local users = {}
                for _, index in ipairs(indexes(5)) do
                  if #expired >= limit or records >= limit then break end
                  local live, irec, fx = index[1], index[2], index[3]
                  for _, id in ipairs(redis.call('ZRANGEBYSCORE', live, '-inf', '(' .. ARGV[2], 'LIMIT', 0, limit - #expired)) do
                    notify(id, id .. ' deleted ' .. ORIGIN)
                    local _, user = purge(id, live, irec, fx)
                    expired[#expired + 1] = id
                    if user and not USER_SETS then
                      users[#users + 1] = id
                      users[#users + 1] = user
                    end
                  end
                  for _, member in ipairs(redis.call('ZRANGEBYSCORE', irec, '-inf', '(' .. ARGV[3], 'LIMIT', 0, limit - records)) do
                    local split = string.find(member, '\n', 1, true)
                    local id = string.sub(member, 1, split - 1)
                    local key = string.sub(member, split + 1)
                    redis.call('DEL', rkey(id, key))
                    redis.call('ZREM', ikey(id), key)
                    redis.call('ZREM', irec, member)
                    records = records + 1
                  end
                end
                return {expired, records, users}
                """#
        case .idempotencyRecord:
            // KEYS: key index, record. ARGV: origin, key -> the record's bytes | nil
            return #"""
                if not redis.call('ZSCORE', KEYS[1], ARGV[2]) then return false end
                return redis.call('GET', KEYS[2])
                """#
        case .count:
            // No KEYS (one node's own index keys). ARGV: origin [, slot tags...] -> sessions
            return #"""
                local total = 0
                for _, index in ipairs(indexes(2)) do total = total + redis.call('ZCARD', index[1]) end
                return total
                """#
        case .pendingEffects:
            // No KEYS (one node's own index keys). ARGV: origin, limit [, slot tags...] -> ids
            return #"""
                local limit = tonumber(ARGV[2])
                local found = {}
                for _, index in ipairs(indexes(3)) do
                  if #found >= limit then break end
                  for _, id in ipairs(redis.call('SRANDMEMBER', index[3], limit - #found)) do found[#found + 1] = id end
                end
                return found
                """#
        }
    }
}
