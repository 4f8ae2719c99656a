"""The one exception of the project: something the user can fix."""


class UserError(Exception):
    """Something the user can fix: the message says what is wrong and what to do, in `lang` ('en', or
    'ja' for the players' Japanese)."""

    def __init__(self, message, lang='en'):
        super().__init__(message)
        self.lang = lang
