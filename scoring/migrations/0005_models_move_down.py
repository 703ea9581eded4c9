# Season moved down to tournaments, ChipUpRace and HandForHand to tables (the layers of issue
# #7): scoring's state lets go of them; the database tables and their rows stay where they are.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0004_payouts_and_deals'),
        ('tables', '0003_chip_up_race_hand_for_hand'),
        ('tournaments', '0007_season_moves_down'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='ChipUpRace'),
                migrations.DeleteModel(name='HandForHand'),
                migrations.DeleteModel(name='Season'),
            ],
            database_operations=[],
        ),
    ]
