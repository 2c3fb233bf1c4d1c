-- EXAMPLE Hidden Agenda: invented text and numbers, not a printed card (docs/RULES.md §15).
return card {
  id = "overrun",
  name = "Overrun",
  text = "Hidden Agenda: at the end of round 6 or later, if revealed Alien models outnumber the "
    .. "Heroes on the map three to one, the Overmind wins.",
  deck = "hidden_agenda",
  on = {
    round_end = function(game, moment)
      local heroes, aliens = #game:heroes(), #game:aliens()
      if moment.round >= 6 and heroes > 0 and aliens >= 3 * heroes then
        game:declare_winner(
          "overmind",
          "Hidden Agenda Overrun: the Aliens outnumber the Heroes three to one"
        )
      end
    end,
  },
}
