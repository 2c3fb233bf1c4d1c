-- The sandbox prelude. It runs once per Sandbox, with the state's real globals and the host
-- functions (host.rs), and builds the whitelisted library every script environment is made
-- of. Scripts only ever see the functions and read-only tables it returns.
--
-- Rules this file keeps:
--  * Wrappers that may raise an argument error on behalf of a script call `error(msg, level)`
--    with the level of the script's frame, or tail-call the real C function (so the C function
--    reports the script's line).
--  * Work that C code does without the instruction hook (copying, scanning, looping) is
--    charged with `charge(units)` before the C code runs, or capped.
--  * Nothing here hands out a real library table, the real string metatable, or an address.

local G, host = ...

-- The debug library is the host's alone (sealing a script reads and sets its functions'
-- upvalues): taken here, then removed before any script runs.
local dbg = G.debug
local getupvalue, setupvalue, upvalueid, getinfo =
  dbg.getupvalue, dbg.setupvalue, dbg.upvalueid, dbg.getinfo
G.debug = nil

local type, select, error, rawget, rawset, rawequal, rawlen =
  G.type, G.select, G.error, G.rawget, G.rawset, G.rawequal, G.rawlen
local next_raw, ipairs = G.next, G.ipairs
local tostring_raw, tonumber_raw = G.tostring, G.tonumber
local setmetatable_raw, getmetatable_raw = G.setmetatable, G.getmetatable
local pcall_raw, xpcall_raw, load_raw = G.pcall, G.xpcall, G.load
local S, T, M, U, C = G.string, G.table, G.math, G.utf8, G.coroutine
local s_byte, s_sub, s_find, s_format, s_rep = S.byte, S.sub, S.find, S.format, S.rep
local t_concat, t_unpack, t_insert, t_remove, t_move, t_sort, t_pack =
  T.concat, T.unpack, T.insert, T.remove, T.move, T.sort, T.pack
local math_type, math_tointeger, math_ult = M.type, M.tointeger, M.ult
local co_resume, co_close = C.resume, C.close
local u_codepoint, u_len, u_offset = U.codepoint, U.len, U.offset

local charge, spent, is_host_error, meta_field, scan, log =
  host.charge, host.spent, host.is_host_error, host.meta_field, host.scan, host.log
local host_error_message = host.host_error_message
local slots = host.slots
local MAX_RESULTS, MAX_STRING = host.max_results, host.max_string
local SCAN_ANCHOR, SCAN_WHOLE, SCAN_PLAIN, SCAN_FIND, SCAN_LAZY = 1, 2, 4, 8, 16

---------------------------------------------------------------------------------------------
-- Read-only views
---------------------------------------------------------------------------------------------

-- proxy -> the table it shows. Weak keys: lookups only, never iterated.
local proxy_target = setmetatable_raw({}, { __mode = "k" })

local safe_tostring -- defined below

local function freeze(target, name)
  local proxy = {}
  setmetatable_raw(proxy, {
    __index = target,
    __newindex = function(_, key)
      error("attempt to modify read-only table '" .. name .. "' (field '"
        .. safe_tostring(key) .. "')", 2)
    end,
    __len = function() return rawlen(target) end,
    __metatable = "read-only table '" .. name .. "'",
  })
  proxy_target[proxy] = target
  return proxy
end

-- A frozen snapshot of a host value: tables are copied (raw fields only) into read-only
-- views, recursively; everything else is shared as is.
local function deep_freeze(value, name, seen)
  if type(value) ~= "table" or proxy_target[value] ~= nil then return value end
  local done = seen[value]
  if done ~= nil then return done end
  local copy = {}
  local proxy = freeze(copy, name)
  seen[value] = proxy
  local k, v = next_raw(value)
  while k ~= nil do
    local sub = type(k) == "string" and (name .. "." .. k) or name
    rawset(copy, k, deep_freeze(v, sub, seen))
    k, v = next_raw(value, k)
  end
  return proxy
end

---------------------------------------------------------------------------------------------
-- Argument helpers (level 3 = the script that called the wrapper that called the helper)
---------------------------------------------------------------------------------------------

local function check_str(v, n, fname)
  local tv = type(v)
  if tv == "string" then return v end
  if tv == "number" then return tostring_raw(v) end
  error("bad argument #" .. n .. " to '" .. fname .. "' (string expected, got " .. tv .. ")", 3)
end

local function check_int(v, n, fname)
  local i = math_tointeger(v)
  if i ~= nil then return i end
  local tv = type(v)
  if tv == "number" or (tv == "string" and tonumber_raw(v) ~= nil) then
    error("bad argument #" .. n .. " to '" .. fname .. "' (number has no integer representation)", 3)
  end
  error("bad argument #" .. n .. " to '" .. fname .. "' (number expected, got " .. tv .. ")", 3)
end

-- lstrlib's posrelatI and getendpos.
local function posrelat(pos, len)
  if pos > 0 then return pos
  elseif pos == 0 then return 1
  elseif pos < -len then return 1
  else return len + pos + 1 end
end

local function endpos(pos, len)
  if pos > len then return len
  elseif pos >= 0 then return pos
  elseif pos < -len then return 0
  else return len + pos + 1 end
end

-- lutf8lib's u_posrelat.
local function u_posrelat(pos, len)
  if pos >= 0 then return pos
  elseif -pos > len then return 0
  else return len + pos + 1 end
end

local function too_many(fname, count)
  error(fname .. ": too many results (" .. count .. "; the sandbox allows at most "
    .. MAX_RESULTS .. ")", 3)
end

---------------------------------------------------------------------------------------------
-- tostring / print without addresses
---------------------------------------------------------------------------------------------

function safe_tostring(v)
  local tv = type(v)
  if tv == "string" then return v end
  if tv == "number" or tv == "boolean" or tv == "nil" then return tostring_raw(v) end
  if is_host_error(v) then return host_error_message(v) end
  if meta_field(v, "__tostring") ~= nil then
    return tostring_raw(v) -- runs the script's __tostring, inside the budget
  end
  local name = meta_field(v, "__name")
  if type(name) == "string" then return name end
  return tv -- "table", "function", "thread", "userdata": no address, which differs per run
end

local function tostring(...)
  if select("#", ...) == 0 then error("bad argument #1 to 'tostring' (value expected)", 2) end
  return safe_tostring((...))
end

local function print(...)
  local n = select("#", ...)
  local parts = { ... }
  for i = 1, n do parts[i] = safe_tostring(parts[i]) end
  log(t_concat(parts, "\t", 1, n))
end

local function tonumber(v, base)
  if type(v) == "string" then
    local l = #v
    if l > 256 then charge(l // 16) end
  end
  return tonumber_raw(v, base)
end

---------------------------------------------------------------------------------------------
-- Metatables
---------------------------------------------------------------------------------------------

local string_mt_view -- set below

-- A sealed script's metatables, made read-only (see `seal`): the table the VM reads (raw) ->
-- the read-only view scripts get. Weak keys: lookups only.
local sealed_view = setmetatable_raw({}, { __mode = "k" })
-- The real metatable of a sealed call's scratch environment holds, under this key (which no
-- script can name), `{ globals, script_mt }`: the read-only globals its misses read first, and
-- the metatable the script gave its `_G` (`false`: none), which `getmetatable` shows instead.
local SCRATCH = {}

local function scratch_of(t)
  local mt = getmetatable_raw(t)
  return type(mt) == "table" and rawget(mt, SCRATCH) or nil
end

-- Lazy tables (a hook's `moment`): made with only a private key holding the host's data; the
-- first read, write, walk or metatable question fills in every field (the host's `lazy_fill`)
-- and drops the key and the metatable, so a hook that never looks at its moment does not pay
-- for building it, and one that does sees a plain table.
local LAZY = {}
local LAZY_MT = {}
local lazy_fill = nil

local function materialize(t)
  local data = rawget(t, LAZY)
  if data == nil then return end
  rawset(t, LAZY, nil)
  setmetatable_raw(t, nil)
  local full = lazy_fill(data)
  local k, v = next_raw(full)
  while k ~= nil do
    rawset(t, k, v)
    k, v = next_raw(full, k)
  end
end

LAZY_MT.__index = function(t, k)
  materialize(t)
  return rawget(t, k)
end
LAZY_MT.__newindex = function(t, k, v)
  materialize(t)
  rawset(t, k, v)
end

local function getmetatable(...)
  if select("#", ...) == 0 then error("bad argument #1 to 'getmetatable' (value expected)", 2) end
  local v = ...
  local tv = type(v)
  if tv == "table" then
    local scratch = scratch_of(v)
    if scratch ~= nil then return scratch[2] or nil end
    local mt = getmetatable_raw(v)
    if mt == LAZY_MT then
      materialize(v)
      return nil
    end
    return sealed_view[mt] or mt
  end
  if tv == "string" then return string_mt_view end
  if tv == "userdata" then return meta_field(v, "__metatable") end
  return nil
end

local set_scratch_mt -- defined with the sealed scripts, below


local function setmetatable(t, mt)
  if type(t) ~= "table" then
    error("bad argument #1 to 'setmetatable' (table expected, got " .. type(t) .. ")", 2)
  end
  if getmetatable_raw(t) == LAZY_MT then materialize(t) end
  if type(mt) == "table" then
    if rawget(mt, "__gc") ~= nil then
      error("setmetatable: __gc finalizers are not allowed in scripts (they would run outside "
        .. "the script's budget, whenever the garbage collector decides)", 2)
    end
    if rawget(mt, "__mode") ~= nil then
      error("setmetatable: weak tables (__mode) are not allowed in scripts (their contents "
        .. "would depend on when the garbage collector runs)", 2)
    end
  end
  local scratch = scratch_of(t)
  if scratch ~= nil then
    return set_scratch_mt(t, mt, scratch[1])
  end
  -- A read-only metatable of a sealed script: the VM reads metamethods raw, so the object
  -- gets the table behind the view (which scripts never see: `getmetatable` gives the view).
  local behind = mt ~= nil and proxy_target[mt]
  if behind then
    sealed_view[behind] = mt
    return setmetatable_raw(t, behind)
  end
  return setmetatable_raw(t, mt)
end

---------------------------------------------------------------------------------------------
-- Deterministic pairs / next
---------------------------------------------------------------------------------------------

-- The canonical key order: numbers ascending, then strings (byte order), then false, true.
local type_rank = { number = 1, string = 2, boolean = 3 }

local function key_less(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return type_rank[ta] < type_rank[tb] end
  if ta == "boolean" then return b and not a end
  return a < b
end

-- The array prefix 1..n, and the other keys sorted. Level 3 = the caller of pairs/next.
local function ordered_keys(t, fname)
  local n = 0
  while rawget(t, n + 1) ~= nil do n = n + 1 end
  local rest, m = {}, 0
  local first_type, mixed = nil, false
  local k = next_raw(t)
  while k ~= nil do
    if math_type(k) ~= "integer" or k < 1 or k > n then
      local tk = type(k)
      if type_rank[tk] == nil then
        error(fname .. ": keys of type " .. tk .. " have no deterministic order (use numbers, "
          .. "strings or booleans as keys of tables you iterate)", 3)
      end
      if first_type == nil then first_type = tk elseif tk ~= first_type then mixed = true end
      m = m + 1
      rest[m] = k
    end
    k = next_raw(t, k)
  end
  if m > 1 then
    -- Keys are distinct, so the sorted result is unique whatever the pivots.
    if mixed or first_type == "boolean" then
      t_sort(rest, key_less)
    else
      -- All numbers or all strings: C compares them without calling Lua; charge that work.
      local log2 = 1
      while (1 << log2) < m do log2 = log2 + 1 end
      charge(m * log2)
      t_sort(rest)
    end
  end
  return n, rest, m
end

local function pairs(t)
  if getmetatable_raw(t) == LAZY_MT then materialize(t) end
  local target = proxy_target[t]
  if target == nil then
    local tt = type(t)
    if tt == "table" or tt == "userdata" then
      local handler = meta_field(t, "__pairs")
      if handler ~= nil then
        local f, s, c = handler(t)
        return f, s, c
      end
    end
    if tt ~= "table" then
      error("bad argument #1 to 'pairs' (table expected, got " .. tt .. ")", 2)
    end
    target = t
  end
  local n, rest, m = ordered_keys(target, "pairs")
  local i, j = 1, 1
  -- Merge the prefix 1..n with the sorted rest (fractions and numbers < 1 sort among them).
  return function()
    while true do
      local k
      local pk = i <= n and i or nil
      local rk = rest[j]
      if pk ~= nil and (rk == nil or not key_less(rk, pk)) then
        k = pk
        i = i + 1
      elseif rk ~= nil then
        k = rk
        j = j + 1
      else
        return nil
      end
      local v = rawget(target, k)
      if v ~= nil then return k, v end -- skip keys deleted during the traversal
    end
  end, t, nil
end

-- `next` remembers the order of the last table it walked, so a whole traversal costs one
-- sort. The cache holds one table (strongly: a weak cache would make instruction counts depend
-- on when the collector runs).
local cached_table, cached_order, cached_index = nil, nil, nil

local function walk_order(target)
  local n, rest, m = ordered_keys(target, "next")
  local order, index = {}, {}
  local i, j, c = 1, 1, 0
  while true do
    local key
    local pk = i <= n and i or nil
    local rk = rest[j]
    if pk ~= nil and (rk == nil or not key_less(rk, pk)) then
      key = pk
      i = i + 1
    elseif rk ~= nil then
      key = rk
      j = j + 1
    else
      break
    end
    c = c + 1
    order[c] = key
    index[key] = c
  end
  cached_table, cached_order, cached_index = target, order, index
  slots[2] = true -- the host's CACHE_SLOT: the next outermost call clears the cache
end

local function next(t, k)
  if type(t) ~= "table" then
    error("bad argument #1 to 'next' (table expected, got " .. type(t) .. ")", 2)
  end
  if getmetatable_raw(t) == LAZY_MT then materialize(t) end
  local target = proxy_target[t] or t
  if next_raw(target) == nil then return nil end
  local at
  if k == nil then
    walk_order(target)
    at = 0
  else
    at = cached_table == target and cached_index[k] or nil
    if at == nil then
      if type_rank[type(k)] == nil then
        error("bad argument #2 to 'next' (invalid key to 'next')", 2)
      end
      walk_order(target)
      at = cached_index[k]
      if at == nil then
        -- k was removed meanwhile: continue after where it would sort.
        at = 0
        while cached_order[at + 1] ~= nil and key_less(cached_order[at + 1], k) do
          at = at + 1
        end
      end
    end
  end
  local order = cached_order
  while true do
    at = at + 1
    local key = order[at]
    if key == nil then return nil end
    local v = rawget(target, key)
    if v ~= nil then return key, v end -- skip keys cleared during the traversal
  end
end

---------------------------------------------------------------------------------------------
-- Protected calls that cannot swallow a spent budget
---------------------------------------------------------------------------------------------

local function caught(ok, ...)
  if ok then return true, ... end
  if spent((...)) then error((...), 0) end
  return false, ...
end

local function pcall(f, ...)
  return caught(pcall_raw(f, ...))
end

local function xpcall(f, handler, ...)
  if type(handler) ~= "function" then
    error("bad argument #2 to 'xpcall' (function expected, got " .. type(handler) .. ")", 2)
  end
  return caught(xpcall_raw(f, function(e)
    if spent(e) then return e end
    return handler(e)
  end, ...))
end

local function resume(co, ...)
  if type(co) ~= "thread" then
    error("bad argument #1 to 'resume' (coroutine expected)", 2)
  end
  return caught(co_resume(co, ...))
end

local function close(co)
  if type(co) ~= "thread" then
    error("bad argument #1 to 'close' (coroutine expected)", 2)
  end
  return caught(co_close(co))
end

---------------------------------------------------------------------------------------------
-- string
---------------------------------------------------------------------------------------------

local function find_result(first, ...)
  if first == nil then error((...), 2) end
  if first == false then return nil end
  return first, ...
end

local function find(s, p, init, plain)
  s = check_str(s, 1, "find")
  p = check_str(p, 2, "find")
  local ls = #s
  local i = init == nil and 1 or posrelat(check_int(init, 3, "find"), ls)
  if i > ls + 1 then return nil end
  local flags = SCAN_ANCHOR | SCAN_FIND
  if plain then flags = flags | SCAN_PLAIN end
  return find_result(scan(s, p, i - 1, -1, flags))
end

local function match_result(first, e, ...)
  if first == nil then error(e, 2) end
  if first == false then return nil end
  return ...
end

local function match(s, p, init)
  s = check_str(s, 1, "match")
  p = check_str(p, 2, "match")
  local ls = #s
  local i = init == nil and 1 or posrelat(check_int(init, 3, "match"), ls)
  if i > ls + 1 then return nil end
  return match_result(scan(s, p, i - 1, -1, SCAN_ANCHOR | SCAN_WHOLE))
end

local function gmatch(s, p, init)
  s = check_str(s, 1, "gmatch")
  p = check_str(p, 2, "gmatch")
  local ls = #s
  local i = init == nil and 1 or posrelat(check_int(init, 3, "gmatch"), ls)
  if i > ls + 1 then i = ls + 1 end
  local src, last, done = i - 1, -1, false
  local function step(first, e, ...)
    if first == nil then error(e, 2) end
    if first == false then
      done = true
      return nil
    end
    src, last = e, e
    return ...
  end
  return function()
    if done then return nil end
    return step(scan(s, p, src, last, SCAN_WHOLE))
  end
end

-- gsub's string replacement: %0..%9 and %%. Level 3 = the script that called gsub.
local function expand(repl, s, caps, ncaps)
  local a = s_find(repl, "%", 1, true)
  if a == nil then return repl end
  local lr = #repl
  if lr > 256 then charge(lr // 16) end
  local out, no, i = {}, 0, 1
  while a ~= nil do
    if a > i then
      no = no + 1
      out[no] = s_sub(repl, i, a - 1)
    end
    local c = s_byte(repl, a + 1)
    if c == 37 then
      no = no + 1
      out[no] = "%"
    elseif c == 48 then
      no = no + 1
      out[no] = s_sub(s, caps[1], caps[2])
    elseif c ~= nil and c >= 49 and c <= 57 then
      local k = c - 48
      if k > ncaps then error("invalid capture index %" .. k .. " in replacement string", 3) end
      local v = caps[2 + k]
      if v == false then error("unfinished capture", 3) end
      no = no + 1
      out[no] = v
    else
      error("invalid use of '%' in replacement string", 3)
    end
    i = a + 2
    a = s_find(repl, "%", i, true)
  end
  if i <= lr then
    no = no + 1
    out[no] = s_sub(repl, i)
  end
  return t_concat(out, "", 1, no)
end

local function gsub(s, p, repl, max_n)
  s = check_str(s, 1, "gsub")
  p = check_str(p, 2, "gsub")
  local tr = type(repl)
  if tr == "number" then
    repl = tostring_raw(repl)
    tr = "string"
  elseif tr ~= "string" and tr ~= "table" and tr ~= "function" then
    error("bad argument #3 to 'gsub' (string/function/table expected, got " .. tr .. ")", 2)
  end
  local ls = #s
  local limit = max_n == nil and ls + 1 or check_int(max_n, 4, "gsub")
  local anchored = s_byte(p, 1) == 94
  local parts, np, n, changed = {}, 0, 0, false
  local src, last = 0, -1
  while n < limit do
    local caps = { scan(s, p, src, last, SCAN_ANCHOR | SCAN_WHOLE | SCAN_LAZY) }
    local first = caps[1]
    if first == nil then error(caps[2], 2) end
    if first == false then break end
    local ms, me = first, caps[2]
    if tr == "function" then
      for c = 3, #caps do
        if caps[c] == false then error("unfinished capture", 2) end
      end
    elseif tr == "table" and caps[3] == false then
      error("unfinished capture", 2)
    end
    if ms - 1 > src then
      np = np + 1
      parts[np] = s_sub(s, src + 1, ms - 1)
    end
    n = n + 1
    local ncaps = #caps - 2
    local value
    if tr == "string" then
      value = expand(repl, s, caps, ncaps)
    elseif tr == "table" then
      value = repl[caps[3]]
    else
      value = repl(t_unpack(caps, 3, ncaps + 2))
    end
    if value == nil or value == false then
      value = s_sub(s, ms, me)
    else
      local tv = type(value)
      if tv ~= "string" and tv ~= "number" then
        error("invalid replacement value (a " .. tv .. ")", 2)
      end
      changed = true
    end
    np = np + 1
    parts[np] = value
    src, last = me, me
    if anchored then break end
  end
  if not changed then return s, n end
  np = np + 1
  parts[np] = s_sub(s, src + 1)
  return t_concat(parts, "", 1, np), n
end

local function rep(s, n, sep)
  local str = check_str(s, 1, "rep")
  local count = check_int(n, 2, "rep")
  local sp = sep == nil and "" or check_str(sep, 3, "rep")
  if count <= 0 then return "" end
  local unit = #str + #sp
  if unit == 0 then return "" end -- C would loop `count` times copying nothing
  if count > (MAX_STRING + #sp) // unit then
    error("resulting string too large (string.rep: the sandbox allows strings of at most "
      .. MAX_STRING .. " bytes)", 2)
  end
  if count > 64 then charge(count // 4) end
  return s_rep(str, count, sp)
end

local function byte(s, i, j)
  local str = check_str(s, 1, "byte")
  local l = #str
  if l > MAX_RESULTS then
    local pi = i == nil and 1 or check_int(i, 2, "byte")
    local pj = j == nil and pi or check_int(j, 3, "byte")
    local count = endpos(pj, l) - posrelat(pi, l) + 1
    if count > MAX_RESULTS then too_many("string.byte", count) end
  end
  return s_byte(str, i, j)
end

local function format(fmt, ...)
  local f = check_str(fmt, 1, "format")
  local lf = #f
  if lf > 256 then charge(lf // 16) end
  -- Walk the conversion specifiers: refuse %p (an address) and note which arguments %s shows.
  local argi, convert = 0, nil
  local a = s_find(f, "%", 1, true)
  while a ~= nil do
    local k = a + 1
    local c = s_byte(f, k)
    if c == 37 then
      k = k + 1
    else
      local guard = 0
      while c ~= nil and guard < 40
        and (c == 45 or c == 43 or c == 32 or c == 35 or c == 46 or (c >= 48 and c <= 57)) do
        k = k + 1
        c = s_byte(f, k)
        guard = guard + 1
      end
      if c == 112 then
        error("bad argument #1 to 'format' ('%p' is not available in scripts: addresses "
          .. "differ between runs)", 2)
      end
      argi = argi + 1
      if c == 115 then
        convert = convert or {}
        convert[argi] = true
      end
      k = k + 1
    end
    a = s_find(f, "%", k, true)
  end
  if convert ~= nil then
    local n = select("#", ...)
    local args = { ... }
    local changed = false
    for idx = 1, n do
      if convert[idx] then
        local tv = type(args[idx])
        if tv == "table" or tv == "userdata" or tv == "function" or tv == "thread" then
          args[idx] = safe_tostring(args[idx])
          changed = true
        end
      end
    end
    if changed then return s_format(f, t_unpack(args, 1, n)) end
  end
  return s_format(f, ...)
end

local string_lib = {
  byte = byte, char = S.char, find = find, format = format, gmatch = gmatch, gsub = gsub,
  len = S.len, lower = S.lower, match = match, rep = rep, reverse = S.reverse, sub = S.sub,
  upper = S.upper,
}

---------------------------------------------------------------------------------------------
-- table
---------------------------------------------------------------------------------------------

local function concat(t, sep, i, j)
  if type(t) == "table" then
    local first = i == nil and 1 or math_tointeger(i)
    local last = j == nil and #t or math_tointeger(j)
    if first ~= nil and last ~= nil and last - first > 64 then charge(last - first) end
  end
  return t_concat(t, sep, i, j)
end

local function insert(t, ...)
  if select("#", ...) == 2 and type(t) == "table" then
    local pos = math_tointeger((...))
    if pos ~= nil then
      local shift = #t - pos
      if shift > 64 then charge(shift) end
    end
  end
  return t_insert(t, ...)
end

local function remove(t, pos)
  if pos ~= nil and type(t) == "table" then
    local p = math_tointeger(pos)
    if p ~= nil then
      local shift = #t - p
      if shift > 64 then charge(shift) end
    end
  end
  return t_remove(t, pos)
end

local function move(a1, f, e, t, a2)
  local fi, ei = math_tointeger(f), math_tointeger(e)
  if fi ~= nil and ei ~= nil and ei >= fi then
    -- C loops e - f + 1 times even over absent elements. (An overflowing span is negative
    -- here and rejected by C as "too many elements to move".)
    local span = ei - fi + 1
    if span > 64 then charge(span) end
  end
  return t_move(a1, f, e, t, a2)
end

local function unpack(t, i, j)
  local tt = type(t)
  if j == nil and tt ~= "table" and tt ~= "string" then return t_unpack(t, i, j) end
  local first = i == nil and 1 or check_int(i, 2, "unpack")
  local last = j == nil and #t or check_int(j, 3, "unpack")
  if first <= last then
    local count = last - first
    if count < 0 or count >= MAX_RESULTS then too_many("table.unpack", last - first + 1) end
    if count > 64 then charge(count) end
  end
  return t_unpack(t, first, last)
end

local function default_less(a, b) return a < b end

-- A stable merge sort written in Lua: deterministic (Lua's C sort picks random pivots for
-- unbalanced partitions, so equal elements could land differently between runs) and counted
-- by the instruction budget.
local function sort(t, lt)
  if type(t) ~= "table" then
    error("bad argument #1 to 'sort' (table expected, got " .. type(t) .. ")", 2)
  end
  if lt ~= nil and type(lt) ~= "function" then
    error("bad argument #2 to 'sort' (function expected, got " .. type(lt) .. ")", 2)
  end
  local n = #t
  if n < 2 then return end
  local less = lt or default_less
  local a = {}
  for i = 1, n do a[i] = t[i] end
  local RUN = 8
  for lo = 1, n, RUN do
    local hi = lo + RUN - 1
    if hi > n then hi = n end
    for i = lo + 1, hi do
      local v = a[i]
      local j = i - 1
      while j >= lo and less(v, a[j]) do
        a[j + 1] = a[j]
        j = j - 1
      end
      a[j + 1] = v
    end
  end
  local b = {}
  local width = RUN
  while width < n do
    for lo = 1, n, 2 * width do
      local mid = lo + width - 1
      if mid >= n then
        for k = lo, n do b[k] = a[k] end
      else
        local hi = mid + width
        if hi > n then hi = n end
        local i, j, k = lo, mid + 1, lo
        while i <= mid and j <= hi do
          if less(a[j], a[i]) then
            b[k] = a[j]
            j = j + 1
          else
            b[k] = a[i]
            i = i + 1
          end
          k = k + 1
        end
        while i <= mid do
          b[k] = a[i]
          i = i + 1
          k = k + 1
        end
        while j <= hi do
          b[k] = a[j]
          j = j + 1
          k = k + 1
        end
      end
    end
    a, b = b, a
    width = width * 2
  end
  for i = 1, n do t[i] = a[i] end
end

local table_lib = {
  concat = concat, insert = insert, move = move, pack = t_pack, remove = remove, sort = sort,
  unpack = unpack,
}

---------------------------------------------------------------------------------------------
-- math
---------------------------------------------------------------------------------------------

local function random(...)
  local draw = slots[1] -- the host's RNG_SLOT
  if draw == nil then
    error("math.random is only available while the game is running (it draws from the "
      .. "game's seeded RNG, which a script's top level does not have)", 2)
  end
  local nargs = select("#", ...)
  local rv = draw()
  if nargs == 0 then return (rv >> 11) * 0x1.0p-53 end
  local low, up
  if nargs == 1 then
    low = 1
    up = check_int((...), 1, "random")
    if up == 0 then return rv end
  elseif nargs == 2 then
    local a, b = ...
    low = check_int(a, 1, "random")
    up = check_int(b, 2, "random")
  else
    error("wrong number of arguments", 2)
  end
  if not (low <= up) then error("bad argument #1 to 'random' (interval is empty)", 2) end
  -- lmathlib's 'project': a uniform integer in [0, up - low] by rejection.
  local n = up - low
  local r = rv
  if n & (n + 1) == 0 then
    r = r & n
  else
    local lim = n
    lim = lim | (lim >> 1)
    lim = lim | (lim >> 2)
    lim = lim | (lim >> 4)
    lim = lim | (lim >> 8)
    lim = lim | (lim >> 16)
    lim = lim | (lim >> 32)
    r = r & lim
    while math_ult(n, r) do r = draw() & lim end
  end
  return low + r
end

local function randomseed()
  error("math.randomseed is not available in scripts: math.random draws from the game's "
    .. "seeded RNG", 2)
end

local math_lib = {}
do
  local k, v = next_raw(M)
  while k ~= nil do
    math_lib[k] = v
    k, v = next_raw(M, k)
  end
end
math_lib.random = random
math_lib.randomseed = randomseed

---------------------------------------------------------------------------------------------
-- utf8
---------------------------------------------------------------------------------------------

local function codepoint(s, i, j, lax)
  local str = check_str(s, 1, "codepoint")
  local l = #str
  if l > MAX_RESULTS then
    local b = u_posrelat(i == nil and 1 or check_int(i, 2, "codepoint"), l)
    local e = u_posrelat(j == nil and b or check_int(j, 3, "codepoint"), l)
    if b >= 1 and e <= l and e - b >= MAX_RESULTS then
      charge((e - b) // 16)
      local count = u_len(str, b, e, lax)
      if count ~= nil and count > MAX_RESULTS then too_many("utf8.codepoint", count) end
    end
  end
  return u_codepoint(str, i, j, lax)
end

local function ulen(s, i, j, lax)
  if type(s) == "string" and #s > 256 then charge(#s // 16) end
  return u_len(s, i, j, lax)
end

local function offset(s, n, i)
  if type(s) == "string" and #s > 256 then charge(#s // 16) end
  return u_offset(s, n, i)
end

local utf8_lib = {
  char = U.char, charpattern = U.charpattern, codepoint = codepoint, codes = U.codes,
  len = ulen, offset = offset,
}

---------------------------------------------------------------------------------------------
-- coroutine
---------------------------------------------------------------------------------------------

local coroutine_lib = {
  close = close, create = C.create, isyieldable = C.isyieldable, resume = resume,
  running = C.running, status = C.status, wrap = C.wrap, yield = C.yield,
}

---------------------------------------------------------------------------------------------
-- The shared, frozen libraries; the string metatable
---------------------------------------------------------------------------------------------

local string_view = freeze(string_lib, "string")
local string_mt = getmetatable_raw("")
string_mt.__index = string_lib
string_mt_view = freeze({ __index = string_view }, "string metatable")
string_mt.__metatable = string_mt_view

local base = {
  assert = G.assert, error = error, getmetatable = getmetatable, ipairs = ipairs, next = next,
  pairs = pairs, pcall = pcall, print = print, rawequal = rawequal, rawlen = rawlen,
  select = select, setmetatable = setmetatable, tonumber = tonumber, tostring = tostring,
  type = type, xpcall = xpcall, _VERSION = G._VERSION,
  string = string_view,
  table = freeze(table_lib, "table"),
  math = freeze(math_lib, "math"),
  utf8 = freeze(utf8_lib, "utf8"),
  coroutine = freeze(coroutine_lib, "coroutine"),
}

---------------------------------------------------------------------------------------------
-- Script environments and the host's entry point
---------------------------------------------------------------------------------------------

-- `load` for one environment: text chunks only; the default environment is the caller's.
local function make_load(env)
  return function(chunk, chunkname, mode, ...)
    if type(chunk) ~= "string" then
      error("bad argument #1 to 'load' (only string chunks are allowed in scripts)", 2)
    end
    if s_byte(chunk, 1) == 27 then
      return nil, "attempt to load a binary chunk (binary chunks are not allowed in scripts)"
    end
    if mode ~= nil and mode ~= "t" and mode ~= "bt" then
      return nil, "attempt to load a text chunk (mode is '" .. safe_tostring(mode) .. "')"
    end
    charge(#chunk + 1)
    -- The chunk name is the sandbox's: a chunk named "@behaviours/other.lua" would pass for
    -- that script in every message. Errors inside loaded code are placed at the line of the
    -- script that runs it.
    local f, err
    if select("#", ...) > 0 then
      f, err = load_raw(chunk, "=(load)", "t", (...))
    else
      f, err = load_raw(chunk, "=(load)", "t", env)
    end
    if f == nil and spent(err) then error(err, 0) end
    return f, err
  end
end

-- A behaviour call builds a fresh environment every time, so this is hot: instead of copying
-- `base` and `shared` key by key (a C call and maybe a rehash per key), one generated table
-- constructor builds the whole table at its final size. It is generated again after the host
-- shares something new (`shared_changed`).
local env_ctor = nil

local function build_env_ctor(shared)
  local names, values, index = {}, {}, {}
  local function add(k, v)
    local at = index[k]
    if at == nil then
      at = #names + 1
      names[at] = k
      index[k] = at
    end
    values[at] = v
  end
  local k, v = next_raw(base)
  while k ~= nil do
    add(k, v)
    k, v = next_raw(base, k)
  end
  k, v = next_raw(shared)
  while k ~= nil do
    add(k, v)
    k, v = next_raw(shared, k)
  end
  -- Each value is an upvalue of the constructor (two instructions a field); past Lua's limit
  -- of upvalues, fields read a table of values instead.
  local n = #names
  local direct = n <= 200
  local fields, locals = {}, {}
  for i = 1, n do
    local value = direct and ("u" .. i) or ("v[" .. i .. "]")
    fields[i] = "[" .. s_format("%q", names[i]) .. "] = " .. value
    locals[i] = "u" .. i
  end
  fields[n + 1] = "_G = false, load = false"
  local head = direct and n > 0 and ("local " .. t_concat(locals, ", ") .. " = ...") or "local v = {...}"
  local code = head .. " return function() return { " .. t_concat(fields, ", ") .. " } end"
  local make = load_raw(code, "=[sandbox env]", "t", {})
  return make(t_unpack(values, 1, n))
end

local function make_env(shared)
  local ctor = env_ctor
  if ctor == nil then
    ctor = build_env_ctor(shared)
    env_ctor = ctor
  end
  local env = ctor()
  env._G = env
  env.load = make_load(env)
  return env
end

local function shared_changed()
  env_ctor = nil
end

-- A new outermost call: nothing of the last one's `next` order may change what this one
-- costs (or keep its table alive).
local function new_call()
  cached_table, cached_order, cached_index = nil, nil, nil
  slots[2] = nil
end

-- Message handler for the host's calls: a spent budget passes through; everything else
-- becomes the host's description of the failure, placed by the stack where it was raised
-- (host.rs `fail`: no script code runs to describe an error value).
local describe_error = host.fail

local function invoked(ok, ...)
  if ok then return ... end
  error((...), 0)
end

local function invoke(f, ...)
  return invoked(xpcall_raw(f, describe_error, ...))
end

-- Run a compiled script's factory (`function(_ENV, ...)`) in a fresh environment: one call
-- from the host for both steps.
local function instantiate(shared, factory)
  return invoked(xpcall_raw(factory, describe_error, make_env(shared)))
end

-- The same, for a script's first run when it loads: the host keeps its environment too.
local function load_first(shared, factory)
  local env = make_env(shared)
  return env, invoked(xpcall_raw(factory, describe_error, env))
end

---------------------------------------------------------------------------------------------
-- Sealed scripts: made once, nothing carried between calls
---------------------------------------------------------------------------------------------

-- A definition script's top level runs once, when it loads; each call then runs one of the
-- functions it defined. Nothing may carry from one call to the next but `game.storage`, so
-- when the script is sealed:
--  * every table its functions can reach (through their upvalues, the definition, the globals
--    its top level set, their metatables) is replaced by a read-only copy: a write raises an
--    error at the script's line that says why;
--  * a coroutine reachable so is refused (its stack would carry state);
--  * the script's `_ENV` becomes, at each call, a fresh scratch table whose misses read the
--    (read-only) globals of the top level and the library, so globals live for one call.
-- Assigning a local of the top level from a function is refused at load by the host, which
-- reads Lua's compiled code (seal.rs).

local SEALED = "a table made when the script loaded"

local function sealed_write(_, key)
  error("attempt to modify " .. SEALED .. " (field '" .. safe_tostring(key) .. "'): such "
    .. "tables are read-only, so that nothing carries from one call to the next; keep state "
    .. "in game.storage", 2)
end

-- Metamethods a read-only copy keeps from its table's metatable (the VM reads them raw).
local KEPT_EVENTS = { "__add", "__sub", "__mul", "__div", "__mod", "__pow", "__unm", "__idiv",
  "__band", "__bor", "__bxor", "__shl", "__shr", "__bnot", "__concat", "__eq", "__lt", "__le",
  "__call", "__tostring", "__name", "__close" }

local function is_script_function(f, source)
  local info = getinfo(f, "S")
  return info.what ~= "C" and (info.source == source or info.source == "=(load)")
end

local seal_value

local function seal_table(t, source, seen)
  local copy = {}
  local meta = {
    __index = copy,
    __newindex = sealed_write,
    __len = function() return rawlen(copy) end,
    __metatable = false, -- set below: the view of its metatable, or nil
  }
  local proxy = setmetatable_raw({}, meta)
  proxy_target[proxy] = copy
  seen[t] = proxy
  local k, v = next_raw(t)
  while k ~= nil do
    rawset(copy, seal_value(k, source, seen), seal_value(v, source, seen))
    k, v = next_raw(t, k)
  end
  local mt = getmetatable_raw(t)
  if type(mt) == "table" then
    local view = seal_value(mt, source, seen)
    local behind = proxy_target[view]
    setmetatable_raw(copy, behind)
    sealed_view[behind] = view
    for i = 1, #KEPT_EVENTS do
      local e = KEPT_EVENTS[i]
      local m = rawget(behind, e)
      if m ~= nil then rawset(meta, e, m) end
    end
    meta.__metatable = view
  else
    meta.__metatable = nil
  end
  return proxy
end

local function seal_function(f, source, seen, cells)
  seen[f] = f
  if not is_script_function(f, source) then return f end
  local i = 1
  while true do
    local name, v = getupvalue(f, i)
    if name == nil then break end
    if name == "_ENV" and type(v) == "table" then
      -- The script's environment: swapped for each call's scratch table (one entry per
      -- upvalue cell).
      local id = upvalueid(f, i)
      if cells.ids[id] == nil then
        cells.ids[id] = true
        cells[#cells + 1] = f
        cells[#cells + 1] = i
      end
    else
      local sealed = seal_value(v, source, seen, cells)
      if not rawequal(sealed, v) then setupvalue(f, i, sealed) end
    end
    i = i + 1
  end
  return f
end

seal_value = function(v, source, seen, cells)
  local tv = type(v)
  if tv == "table" then
    if proxy_target[v] ~= nil then return v end -- the library's, or sealed already
    local done = seen[v]
    if done ~= nil then return done end
    return seal_table(v, source, seen)
  elseif tv == "function" then
    if seen[v] ~= nil then return v end
    return seal_function(v, source, seen, cells or seen.cells)
  elseif tv == "thread" then
    error("a coroutine made when the script loaded would keep its state from one call to the "
      .. "next; make it inside the function that uses it (keep state in game.storage)", 0)
  end
  return v
end

-- The read-only environment of a script whose functions only read globals by name (the host's
-- check of the compiled code): a write that reached it anyway fails rather than carries.
local READ_ONLY_GLOBALS_MT = {
  __newindex = function(_, k)
    error("cannot set global '" .. tostring(k) .. "': the script's globals are read-only "
      .. "between calls; keep state in game.storage", 2)
  end,
  __metatable = false,
}

-- Seals a loaded script: `env` is the environment its top level ran in, `def` the table of its
-- definition, `source` its chunk name, `reads_only` whether the host found that its functions
-- only read globals by name. Returns what `call_sealed` needs.
local function seal(env, def, source, reads_only)
  local cells = { ids = {} }
  local seen = { cells = cells }
  -- The globals the top level set (and the library, already read-only), as one read-only
  -- table behind every call's scratch environment. `_G` and `load` are each call's own.
  local globals = {}
  local k, v = next_raw(env)
  while k ~= nil do
    if k ~= "_G" and k ~= "load" then
      rawset(globals, k, seal_value(v, source, seen, cells))
    end
    k, v = next_raw(env, k)
  end
  -- Functions of the definition keep their upvalues sealed; the definition table itself stays
  -- the host's (scripts reach it only through upvalues, which now hold a read-only copy).
  k, v = next_raw(def)
  while k ~= nil do
    seal_value(v, source, seen, cells)
    k, v = next_raw(def, k)
  end
  -- Functions an environment cell holds besides the script's own (a chunk `load`ed at the top
  -- level): every cell whose value is this environment is swapped at each call.
  cells.ids = nil
  local now = env
  if reads_only then
    -- Every call reads the same globals and none can write one or reach the table: each
    -- cell holds the read-only globals for good, and calls need no scratch environment.
    setmetatable_raw(globals, READ_ONLY_GLOBALS_MT)
    for i = 1, #cells, 2 do
      setupvalue(cells[i], cells[i + 1], globals)
    end
    cells = {}
    now = globals
  end
  local cell_f, cell_i = cells[1], cells[2]
  if #cells > 2 then cell_f, cell_i = nil, nil end
  return {
    cells = cells,
    cell_f = cell_f, -- the common case: one cell, no table to save it in
    cell_i = cell_i,
    now = now, -- what that cell holds between calls
    meta = { __index = globals, [SCRATCH] = { globals, false } },
  }
end

-- `load` inside a sealed call: the default environment is the call's own scratch table.
local current_env = nil
local sealed_load = make_load(nil)

local function sealed_load_in(chunk, chunkname, mode, ...)
  if select("#", ...) > 0 then return sealed_load(chunk, chunkname, mode, ...) end
  return sealed_load(chunk, chunkname, mode, current_env)
end

local function leave_sealed(cells, saved, outer, ok, ...)
  for i = 1, #cells, 2 do
    setupvalue(cells[i], cells[i + 1], saved[i])
  end
  current_env = outer
  if ok then return ... end
  error((...), 0)
end

local function leave_sealed_one(sealed, f, i, old, outer, ok, ...)
  if f ~= nil then
    setupvalue(f, i, old)
    sealed.now = old
  end
  current_env = outer
  if ok then return ... end
  error((...), 0)
end

-- A script gives its `_G` (a scratch environment) a metatable: the globals of the top level
-- and the library stay found first, as when they were the environment's own fields; then the
-- script's `__index`; every other field of its metatable is the environment's.
set_scratch_mt = function(env, mt, globals)
  if mt ~= nil and type(mt) ~= "table" then
    error("bad argument #2 to 'setmetatable' (nil or table expected)", 3)
  end
  local real = {}
  if mt ~= nil then
    local k, v = next_raw(mt)
    while k ~= nil do
      rawset(real, k, v)
      k, v = next_raw(mt, k)
    end
  end
  local own = mt ~= nil and rawget(mt, "__index") or nil
  if own == nil then
    real.__index = globals
  elseif type(own) == "function" then
    real.__index = function(t, k)
      local v = globals[k]
      if v ~= nil then return v end
      return own(t, k)
    end
  else
    real.__index = function(_, k)
      local v = globals[k]
      if v ~= nil then return v end
      return own[k]
    end
  end
  real.__metatable = nil
  real[SCRATCH] = { globals, mt or false }
  setmetatable_raw(env, real)
  return env
end

-- Calls `f(...)` of a sealed script with a fresh scratch environment, through the message
-- handler; the environment the cells held before (an outer call of the same script's) is put
-- back however the call ends.
local function call_sealed(sealed, f, ...)
  local cells = sealed.cells
  if cells[1] == nil then
    -- No function of the script reads or writes a global: there is no environment to give
    -- the call (a `load` needs the global `load`, so it has one too).
    return invoked(xpcall_raw(f, describe_error, ...))
  end
  -- Both fields in the constructor: the hash part is made at its size, not grown.
  local scratch = setmetatable_raw({ load = sealed_load_in, _G = false }, sealed.meta)
  scratch._G = scratch
  local outer = current_env
  current_env = scratch
  if #cells <= 2 then
    local cf, ci = sealed.cell_f, sealed.cell_i
    local old
    if cf ~= nil then
      -- What the cell holds now (the load's environment, or an outer call's scratch) is
      -- kept here rather than read back from the cell: one C call less.
      old = sealed.now
      sealed.now = scratch
      setupvalue(cf, ci, scratch)
    end
    return leave_sealed_one(sealed, cf, ci, old, outer, xpcall_raw(f, describe_error, ...))
  end
  local saved = {}
  for i = 1, #cells, 2 do
    local _, old = getupvalue(cells[i], cells[i + 1])
    saved[i] = old
    setupvalue(cells[i], cells[i + 1], scratch)
  end
  return leave_sealed(cells, saved, outer, xpcall_raw(f, describe_error, ...))
end

-- Defence in depth: the real globals never reach a script, but drop what must never run.
G.load, G.loadfile, G.dofile, G.collectgarbage = nil, nil, nil, nil
S.dump = nil

return {
  shared_changed = shared_changed,
  new_call = new_call,
  instantiate = instantiate,
  load = load_first,
  invoke = invoke,
  freeze = function(value, name) return deep_freeze(value, name, {}) end,
  seal = seal,
  call_sealed = call_sealed,
  -- A hook's call: `(game, moment)`, the moment a lazy table of the host's moment `index`.
  call_hook = function(sealed, f, game, index)
    return call_sealed(sealed, f, game, setmetatable_raw({ [LAZY] = index }, LAZY_MT))
  end,
  -- The same for a script with no environment of its own (`call_sealed`'s first case), called
  -- by the host straight through `lua_pcall` with `fail` as the message handler: one frame, and
  -- the hook's call a tail call.
  hook_bare = function(f, game, index)
    return f(game, setmetatable_raw({ [LAZY] = index }, LAZY_MT))
  end,
  -- What the host's direct call raises again when the call failed, so that the error reaches
  -- the host as every other call's does (through mlua's own protected call).
  raise = function(e) error(e, 0) end,
  fail = describe_error,
  set_lazy_fill = function(f) lazy_fill = f end,
  tostring = safe_tostring,
}
