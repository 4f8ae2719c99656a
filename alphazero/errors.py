"""The one exception of the project: something the user can fix."""


class UserError(Exception):
    """Something the user can fix: the message says what is wrong and what to do."""
