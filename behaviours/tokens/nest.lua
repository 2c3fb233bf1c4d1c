-- EXAMPLE Building Exploration event: invented text, not a printed card (docs/RULES.md §14).

--- Whether a model or a Blip stands on `square`.
---@param game Game
---@param square Pos
---@return boolean
local function occupied(game, square)
  for _, list in ipairs { game:heroes(), game:aliens(), game:blips() } do
    for _, m in ipairs(list) do
      if m.x == square.x and m.y == square.y then
        return true
      end
    end
  end
  return false
end

return token {
  id = "nest",
  name = "Nest",
  class = "exploration",
  symbol = "]",
  text = "Interact: the nest is destroyed, but a Stalker Blip appears on a free square next to it.",
  on = {
    interact = function(game, moment)
      local at = moment.token
      if at == nil then
        return
      end
      game:remove_token(at)
      for _, d in ipairs { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } } do
        local square = { x = at.x + d[1], y = at.y + d[2] }
        if game:terrain(square) ~= "solid" and not occupied(game, square) then
          game:spawn_blip(square, "stalker", 1)
          return
        end
      end
      game:log("the nest is empty")
    end,
  },
}
