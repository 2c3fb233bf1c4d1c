-- EXAMPLE Hidden Agenda: invented text and numbers, not a printed card (docs/RULES.md §15).
return card {
  id = "overrun",
  name = "Overrun",
  text = "Hidden Agenda: at the end of a round, if revealed Alien models outnumber the "
    .. "Heroes on the map two to one, the Overmind wins.",
  deck = "hidden_agenda",
  on = {
    round_end = function(game)
      local heroes, aliens = #game:heroes(), #game:aliens()
      if heroes > 0 and aliens >= 2 * heroes then
        game:declare_winner(
          "overmind",
          "Hidden Agenda Overrun: the Aliens outnumber the Heroes two to one"
        )
      end
    end,
  },
}
