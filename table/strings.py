"""The words of the table's page, translated on the server and sent with each state (the page has no catalogs)."""

from __future__ import annotations

from i18n import N_, _

NO_GAME = N_("There is no game being played in this channel. Start one with {command}, then open the table again.")
NO_TABLE = N_("This game cannot be played on the table yet: play it with the menus under its board.")
SPECTATOR_TAP = N_("You are watching this game: only its players can move.")
TABLE_STALE = N_("The game changed before your tap arrived, so it was not applied: look at the table and tap again.")
BAD_MESSAGE = N_("The table sent something the bot does not understand: reload the table.")
NOT_SAVED = N_("The bot could not save your move: nothing was changed. Try again in a moment.")
SIGN_IN_FAILED = N_("Discord did not let the table know who you are: close the table and open it again.")


def chrome() -> dict[str, str]:
    """Return the page's own words by key, in the current language (placeholders stay for the page to fill)."""
    return {
        "reconnecting": _("Connection lost: reconnecting…"),
        "spectator": _("You are watching: only the players of this game can move."),
        "over": _("The game is over."),
        "dismiss": _("Close"),
        "new_game": _("The next game in this channel has started: the table shows it now."),
    }
